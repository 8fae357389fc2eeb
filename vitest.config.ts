import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // The CLIs, demo servers and fixtures the tests start keep their compiled code between runs.
    env: { NODE_COMPILE_CACHE: join(import.meta.dirname, 'node_modules/.cache/node-compile') },
    // Safety nets, not measurements: a test waits for its events and must pass on a machine busy
    // with other work. Room for three waits of SAFETY_NET_MS (src/test/limits.ts) in a row.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Real servers and child processes: keep the suite's load within two cores.
    maxWorkers: 2,
  },
})
