#!/usr/bin/env node
// out/main/cli.js: the Node version is checked before the CLI's modules (and their
// dependencies, which need Node 22.12) are even loaded; static imports would load first.
import { requireNode } from '../require-node.js'

requireNode('rag-console')
await import('./main')
