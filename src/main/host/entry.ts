// out/main/host.js (`npm run start:browser`): the Node version is checked before the host's
// modules (and their dependencies, which need Node 22.12) are even loaded.
import { requireNode } from '../require-node.js'

requireNode('RAG Console (browser host)')
await import('./main')
