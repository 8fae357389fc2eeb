import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumPath } from './src/test/support/host/chromium'
import { SAFETY_NET_MS } from './src/test/support/process/limits'

// The hosts, CLIs and demo servers the specs start keep their compiled code between runs.
process.env.NODE_COMPILE_CACHE ??= join(import.meta.dirname, 'node_modules/.cache/node-compile')

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  // Spec files run side by side, the tests of one file in order: each worker has its own
  // keyring (e2e/host.ts), each test its own ports and data folder, and the embedded demo
  // registry's fixed ports are taken in turn (e2e/console.ts).
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // Safety nets, not measurements: on a machine busy with other work a server takes far longer
  // to connect and a page to update, and the test must still pass. An expectation waits as
  // long as any other wait; a test has room for three such waits.
  timeout: 3 * SAFETY_NET_MS,
  expect: { timeout: SAFETY_NET_MS },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    viewport: { width: 1360, height: 860 },
    // Spinners and transitions stay still: they cost Chromium CPU and no spec asserts on them
    // moving; os-settings.spec.ts holds the page to both settings.
    reducedMotion: 'reduce',
    trace: 'off',
  },
})
