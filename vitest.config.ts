import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

/**
 * The integration project: tests that run built code (`out/`: the CLI, the demo servers, the
 * browser host), start servers or MCP fixtures, use the OS keychain, or take long to measure
 * something. Every other test is in the unit project (`npm run test:quick`), which has none of
 * these: a unit test that asks for a built file or the keychain fails, saying to list it here.
 */
const INTEGRATION = [
  'src/test/**/*.test.ts',
  'src/demo/*/server.test.ts',
  'src/demo/inspector.test.ts',
  'src/demo/main.test.ts',
  'src/main/build.test.ts',
  'src/main/data-dir.test.ts',
  'src/main/host/*.test.ts',
  'src/main/cli/commands/*.test.ts',
  'src/main/cli/{acting-user,commands,connect-timeout,non-rag-server,output-pipe,registry-file}.test.ts',
  'src/main/core/pool/{pool-*,call-observer,wire-fetch}.test.ts',
  'src/main/core/config/import.test.ts',
  'src/main/demo-bootstrap/demo-keys.test.ts',
  'src/main/core/dialects/generic.pool.test.ts',
  'src/main/core/monitoring/{canary-events,host-metrics,telemetry-trace}.test.ts',
  'src/main/core/secrets/{keychain-failures,keychain-store,resolver,secrets-ipc}.test.ts',
  'src/main/core/services/doctor/probe.test.ts',
  'src/main/core/services/{discovery-service,elicitation-broker,link-check,rag-handlers}.test.ts',
  'src/main/core/services/{ragbox-refusal,search-service,search-wire-order}.test.ts',
  'src/main/core/services/{servers-service,synthesis-service}.test.ts',
  'src/main/core/services/{workbench-everything,workbench-keychain}.test.ts',
  'bench/monitor.test.ts',
  // Not a quick check: times every regular expression on large hostile texts (20 s and more).
  'src/main/core/secrets/server-text.fuzz.test.ts',
]

export default defineConfig({
  test: {
    environment: 'node',
    // The CLIs, demo servers and fixtures the tests start keep their compiled code between runs.
    env: { NODE_COMPILE_CACHE: join(import.meta.dirname, 'node_modules/.cache/node-compile') },
    // Safety nets, not measurements: a test waits for its events and must pass on a machine busy
    // with other work. Room for three waits of SAFETY_NET_MS (src/test/support/process/limits.ts)
    // in a row.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Real servers and child processes: keep the suite's load within two cores.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: INTEGRATION,
          // Unit tests share each worker's modules instead of loading them again per file: 14 s
          // instead of 34 on the idle machine. A file must leave no state behind; one that keeps
          // the clock faked fails (unit-setup.ts).
          isolate: false,
          setupFiles: ['src/test/support/process/unit-setup.ts'],
          env: { RAG_CONSOLE_TEST_PROJECT: 'unit' },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          // Builds once when out/ is missing or older than src/.
          globalSetup: ['src/test/support/process/build-once.ts'],
        },
      },
    ],
  },
})
