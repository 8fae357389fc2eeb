#!/usr/bin/env node
// Runs before `npm run start:browser` builds anything: on a Node older than 22.12, one sentence
// and exit 2 (see src/main/require-node.js).
import { requireNode } from '../src/main/require-node.js'

requireNode('RAG Console')
