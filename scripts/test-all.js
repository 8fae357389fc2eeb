#!/usr/bin/env node
// The README's test command: typecheck, lint, build, unit + integration tests (inside a real
// Secret Service when the machine has one), Playwright e2e, the MCP conformance suite's client
// scenarios, and the benchmarks' quick run.
// Ends with one line `N passed, N failed, N skipped` summing every runner.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const reports = join(root, 'test-results')
const bin = (name) => join(root, 'node_modules/.bin', name)
const totals = { passed: 0, failed: 0, skipped: 0 }
const lines = []

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`)
  const started = Date.now()
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '0', ...env },
  })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  return { ok: result.status === 0, seconds }
}

function check(label, command, args) {
  const { ok, seconds } = run(label, command, args)
  totals[ok ? 'passed' : 'failed'] += 1
  lines.push(`${label}: ${ok ? 'ok' : 'FAILED'} (${seconds}s)`)
  return ok
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

function count(label, counts, ok, seconds) {
  // A runner that failed without reporting a failure (crash, setup error) counts as one.
  if (!ok && counts.failed === 0) counts.failed = 1
  totals.passed += counts.passed
  totals.failed += counts.failed
  totals.skipped += counts.skipped
  lines.push(
    `${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${seconds}s)`,
  )
}

rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

check('typecheck', bin('tsc'), ['-b', '--noEmit'])
check('lint', 'npm', ['run', '--silent', 'lint'])
const built = check('build', bin('electron-vite'), ['build'])

const keyring =
  existsSync('/usr/bin/dbus-run-session') && existsSync('/usr/bin/gnome-keyring-daemon')
const vitestArgs = [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(reports, 'vitest.json')}`,
]
const vitest = keyring
  ? run('vitest (inside dbus-run-session + gnome-keyring)', 'bash', [
      'scripts/with-keyring.sh',
      bin('vitest'),
      ...vitestArgs,
    ])
  : run('vitest (no Secret Service on this machine)', bin('vitest'), vitestArgs)
const vitestReport = readJson(join(reports, 'vitest.json'))
// A file that failed to load or whose hooks failed has no failed test of its own: count it too.
const brokenFiles = (vitestReport?.testResults ?? []).filter(
  (file) =>
    file.status === 'failed' &&
    !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
).length
count(
  'vitest',
  {
    passed: vitestReport?.numPassedTests ?? 0,
    failed: (vitestReport?.numFailedTests ?? 0) + brokenFiles,
    skipped: (vitestReport?.numPendingTests ?? 0) + (vitestReport?.numTodoTests ?? 0),
  },
  vitest.ok,
  vitest.seconds,
)

if (built) {
  const e2e = keyring
    ? run(
        'playwright (inside dbus-run-session + gnome-keyring)',
        'bash',
        ['scripts/with-keyring.sh', bin('playwright'), 'test'],
        { CI: '1' },
      )
    : run('playwright', bin('playwright'), ['test'], { CI: '1' })
  const stats = readJson(join(reports, 'e2e.json'))?.stats
  count(
    'playwright',
    {
      passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0),
      failed: stats?.unexpected ?? 0,
      skipped: stats?.skipped ?? 0,
    },
    e2e.ok,
    e2e.seconds,
  )
} else {
  count('playwright (not run: the build failed)', { passed: 0, failed: 1, skipped: 0 }, false, '0')
}

if (built) {
  // The MCP conformance suite's client scenarios; required ones count, reported ones do not.
  const conformance = run('conformance', 'node', ['scripts/conformance.js'])
  const results = readJson(join(reports, 'conformance', 'results.json')) ?? []
  const required = results.filter((result) => result.required)
  count(
    'conformance',
    {
      passed: required.filter((result) => result.passed).length,
      failed: required.filter((result) => !result.passed).length,
      skipped: 0,
    },
    conformance.ok,
    conformance.seconds,
  )
}

if (built) check('bench --quick', 'node', ['out/main/bench.js', '--quick'])

console.log('\n=== summary')
for (const line of lines) console.log(line)
console.log(`${totals.skipped} skipped (each says why in its runner's output)`)
console.log(`${totals.passed} passed, ${totals.failed} failed`)
process.exit(totals.failed === 0 ? 0 : 1)
