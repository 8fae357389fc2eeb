#!/usr/bin/env node
// The README's test command: the build, then side by side lint, typecheck (followed by the MCP
// conformance suite's client scenarios and the benchmarks' quick run), Playwright e2e, and the
// unit + integration tests (inside a real Secret Service when the machine has one).
// Output lines carry their runner's name.
// Ends with one line `N passed, N failed` summing every runner.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const reports = join(root, 'test-results')
const bin = (name) => join(root, 'node_modules/.bin', name)
const totals = { passed: 0, failed: 0, skipped: 0 }
// Every Node process the runners start (CLIs, demo servers, hosts, the conformance suite's
// clients, the benchmarks' children) keeps its compiled code for the next one.
process.env.NODE_COMPILE_CACHE ??= join(root, 'node_modules/.cache/node-compile')
const lines = []

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
    const seconds = `${((Date.now() - started) / 1000).toFixed(1)}s`
    const used = childCpu()
    return cpu === undefined ? seconds : `${seconds}, CPU ${(used - cpu).toFixed(0)}s`
  }
}

/** Copies a child's output to ours line by line, each line led by the runner's name. */
function relay(stream, label) {
  let pending = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk) => {
    const parts = (pending + chunk).split('\n')
    pending = parts.pop()
    for (const part of parts) process.stdout.write(`[${label}] ${part}\n`)
  })
  stream.on('end', () => pending && process.stdout.write(`[${label}] ${pending}\n`))
}

/**
 * Runs one job and resolves once it has ended. A job is either a program (`label`, `command`,
 * `args`, optional `env`, and `done(ok, seconds)`, called as it ends: it counts the result) or
 * a `run` function that runs other jobs.
 */
function runJob(job) {
  if (job.run) return job.run()
  console.log(`[${job.label}] ${[job.command, ...job.args].join(' ')}`)
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(job.command, job.args, {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0', ...job.env },
    })
    relay(child.stdout, job.label)
    relay(child.stderr, job.label)
    let ended = false
    const end = (ok) => {
      if (ended) return
      ended = true
      job.done(ok, `${((Date.now() - started) / 1000).toFixed(1)}s`)
      resolve()
    }
    child.once('error', (error) => {
      process.stdout.write(`[${job.label}] ${error.message}\n`)
      end(false)
    })
    child.once('close', (code) => end(code === 0))
  })
}

/** A job that runs `groups` one after the other, the jobs of each group side by side. */
function inTurn(...groups) {
  return {
    async run() {
      for (const group of groups) await Promise.all(group.map(runJob))
    },
  }
}

/** Runs jobs side by side as one stage and resolves once all have ended. */
async function together(stage, jobs) {
  console.log(`\n=== ${stage}`)
  const elapsed = stopwatch()
  await Promise.all(jobs.map(runJob))
  lines.push(`  ${stage}: ${elapsed()}`)
}

/** A job that counts as one check, passed when it exits 0. */
function check(label, command, args, onEnd = () => {}) {
  return {
    label,
    command,
    args,
    done(ok, seconds) {
      totals[ok ? 'passed' : 'failed'] += 1
      lines.push(`${label}: ${ok ? 'ok' : 'FAILED'} (${seconds})`)
      onEnd(ok)
    },
  }
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

// The build first, alone: every runner after it runs the built code, and it takes seconds.
let built = false
await together('build', [check('build', bin('electron-vite'), ['build'], (ok) => (built = ok))])

// Each runner inside its own D-Bus session and gnome-keyring when the machine has them.
const keyring =
  existsSync('/usr/bin/dbus-run-session') && existsSync('/usr/bin/gnome-keyring-daemon')
const withKeyring = (command, args) =>
  keyring ? ['bash', ['scripts/with-keyring.sh', command, ...args]] : [command, args]
if (!keyring)
  console.log('\nNo Secret Service on this machine: the keychain tests say why they skip.')

// Three files at a time beside the other lines (two on its own, vitest.config.ts): Vitest is the
// last line to end, and a third worker gives it a larger share of the cores that Playwright and
// the checks, which end earlier, would otherwise hold.
const [vitestCommand, vitestArgs] = withKeyring(bin('vitest'), [
  'run',
  '--maxWorkers=3',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(reports, 'vitest.json')}`,
])
const vitestJob = {
  label: 'vitest',
  command: vitestCommand,
  args: vitestArgs,
  done(ok, seconds) {
    const report = readJson(join(reports, 'vitest.json'))
    // A file that failed to load or whose hooks failed has no failed test of its own: count it.
    const brokenFiles = (report?.testResults ?? []).filter(
      (file) =>
        file.status === 'failed' &&
        !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
    ).length
    count(
      'vitest',
      {
        passed: report?.numPassedTests ?? 0,
        failed: (report?.numFailedTests ?? 0) + brokenFiles,
        skipped: (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0),
      },
      ok,
      seconds,
    )
  },
}
const [pwCommand, pwArgs] = withKeyring(bin('playwright'), ['test'])
const playwrightJob = {
  label: 'playwright',
  command: pwCommand,
  args: pwArgs,
  env: { CI: '1' },
  done(ok, seconds) {
    const stats = readJson(join(reports, 'e2e.json'))?.stats
    count(
      'playwright',
      {
        passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0),
        failed: stats?.unexpected ?? 0,
        skipped: stats?.skipped ?? 0,
      },
      ok,
      seconds,
    )
  },
}
const conformanceJob = {
  label: 'conformance',
  command: 'node',
  args: ['scripts/conformance.js'],
  done(ok, seconds) {
    // The MCP conformance suite's client scenarios; required ones count, reported ones do not.
    const results = readJson(join(reports, 'conformance', 'results.json')) ?? []
    const required = results.filter((result) => result.required)
    count(
      'conformance',
      {
        passed: required.filter((result) => result.passed).length,
        failed: required.filter((result) => !result.passed).length,
        skipped: 0,
      },
      ok,
      seconds,
    )
  },
}

// Then everything at once: Playwright (two workers; it waits on pages and servers more than it
// computes), Vitest (three files at a time), lint, and typecheck followed by the conformance
// suite and the benchmarks' quick run (which reports, and judges only what load does not
// change). Together they keep both cores busy to the end. Lint is the longest check (ESLint
// with types, dependency-cruiser, Prettier, one after another), so the others run in turn
// beside it rather than after it. In turn the whole work took 1,065 s.
const lint = check('lint', 'npm', ['run', '--silent', 'lint'])
const typecheckThenSuites = inTurn(
  [check('typecheck', bin('tsc'), ['-b', '--noEmit'])],
  ...(built
    ? [[conformanceJob], [check('bench --quick', 'node', ['out/main/bench.js', '--quick'])]]
    : []),
)
const checks = [lint, typecheckThenSuites]
if (built) {
  await together('checks and tests', [...checks, playwrightJob, vitestJob])
} else {
  // Integration tests run the built entries: without a build only the unit tests can tell.
  await together('checks and tests', [...checks, vitestJob])
  count('playwright (not run: the build failed)', { passed: 0, failed: 1, skipped: 0 }, false, '0s')
}

lines.push(`whole run: ${suite()}`)
console.log('\n=== summary')
for (const line of lines) console.log(line)
console.log(`${totals.skipped} skipped (each says why in its runner's output)`)
console.log(`${totals.passed} passed, ${totals.failed} failed`)
process.exit(totals.failed === 0 ? 0 : 1)
