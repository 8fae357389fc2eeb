#!/usr/bin/env node
// Run `npm run build` first; the CLI is bundled into out/main/cli.js.
import '../out/main/cli.js'
