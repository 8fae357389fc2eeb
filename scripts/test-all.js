#!/usr/bin/env node
// The README's test command: typecheck, lint and build side by side, then unit + integration
// tests (inside a real Secret Service when the machine has one), Playwright e2e, the MCP
// conformance suite's client scenarios, and the benchmarks' quick run.
// Ends with one line `N passed, N failed` summing every runner.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const reports = join(root, 'test-results')
const bin = (name) => join(root, 'node_modules/.bin', name)
const totals = { passed: 0, failed: 0, skipped: 0 }
const lines = []
const env = (extra = {}) => ({ ...process.env, FORCE_COLOR: '0', ...extra })

/** Clock ticks per second of /proc's CPU times. */
const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100

/** CPU seconds (user + system) of every child this process has waited for, where /proc tells. */
function childCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
    // Fields 16 and 17 (cutime, cstime); the split starts at field 3.
    return (Number(fields[13]) + Number(fields[14])) / ticks
  } catch {
    return undefined
  }
}

/** What a stretch of the run cost: its wall time, and its CPU time when /proc tells. */
function stopwatch() {
  const started = Date.now()
  const cpu = childCpu()
  return () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    const used = childCpu()
    return cpu === undefined ? `${seconds}s` : `${seconds}s, CPU ${(used - cpu).toFixed(0)}s`
  }
}

function run(label, command, args, extra = {}) {
  console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`)
  const elapsed = stopwatch()
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: env(extra) })
  return { ok: result.status === 0, seconds: elapsed() }
}

/**
 * Runs checks side by side, each with its output held and printed whole when it ends; counts
 * each as one passed or failed. Resolves with whether each passed, by label.
 */
async function checksTogether(checks) {
  const elapsed = stopwatch()
  const results = await Promise.all(
    checks.map(
      ({ label, command, args }) =>
        new Promise((resolve) => {
          const started = Date.now()
          const child = spawn(command, args, { cwd: root, env: env() })
          let output = ''
          child.stdout.on('data', (chunk) => (output += chunk))
          child.stderr.on('data', (chunk) => (output += chunk))
          const done = (ok) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1)
            console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`)
            process.stdout.write(output)
            totals[ok ? 'passed' : 'failed'] += 1
            lines.push(`${label}: ${ok ? 'ok' : 'FAILED'} (${seconds}s)`)
            resolve([label, ok])
          }
          child.once('error', (error) => {
            output += `${error.message}\n`
            done(false)
          })
          child.once('close', (code) => done(code === 0))
        }),
    ),
  )
  lines.push(`  side by side: ${elapsed()}`)
  return Object.fromEntries(results)
}

function check(label, command, args) {
  const { ok, seconds } = run(label, command, args)
  totals[ok ? 'passed' : 'failed'] += 1
  lines.push(`${label}: ${ok ? 'ok' : 'FAILED'} (${seconds})`)
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
    `${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${seconds})`,
  )
}

rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

const suite = stopwatch()
// Independent of each other, and each mostly one core: on two cores side by side.
const { build: built } = await checksTogether([
  { label: 'typecheck', command: bin('tsc'), args: ['-b', '--noEmit'] },
  { label: 'lint', command: 'npm', args: ['run', '--silent', 'lint'] },
  { label: 'build', command: bin('electron-vite'), args: ['build'] },
])

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
  count('playwright (not run: the build failed)', { passed: 0, failed: 1, skipped: 0 }, false, '0s')
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

lines.push(`whole run: ${suite()}`)
console.log('\n=== summary')
for (const line of lines) console.log(line)
console.log(`${totals.skipped} skipped (each says why in its runner's output)`)
console.log(`${totals.passed} passed, ${totals.failed} failed`)
process.exit(totals.failed === 0 ? 0 : 1)
