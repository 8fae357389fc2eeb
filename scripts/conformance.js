#!/usr/bin/env node
// `npm run conformance`: the official MCP conformance suite's client scenarios against the
// built `rag-console` CLI (scripts/conformance-client.js). Required: every scenario of spec
// versions 2025-06-18 / 2025-11-25 (initialize, tools_call, sse-retry, elicitation defaults and
// the auth suite). The others (2025-03-26 back-compat, draft, extensions) are run and reported.
// One scenario at a time: sse-retry measures the client's reconnect delay, which parallel runs
// on two cores distort. A scenario passes with no FAILURE check; its warnings are reported.
// Writes test-results/conformance.json and a markdown table; exits 1 when a required one fails.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'node_modules/.bin/conformance')
const out = join(root, 'test-results', 'conformance')
const REQUIRED_VERSIONS = ['2025-06-18', '2025-11-25']
/** Client capabilities the console does not declare: run, reported, not required. */
const NOT_OFFERED = {}

if (!existsSync(join(root, 'out/main/cli.js'))) {
  console.error('out/main/cli.js is missing: run `npm run build` first')
  process.exit(1)
}

/** `conformance list`: client scenarios with their spec versions. */
function scenarios() {
  const listed = spawnSync(cli, ['list'], { encoding: 'utf8' }).stdout
  const client = listed.slice(listed.indexOf('Client scenarios'))
  return [...client.matchAll(/^\s*- (\S+) \[([^\]]+)\]/gm)].map(([, name, versions]) => ({
    name,
    versions: versions.split(','),
  }))
}

function checksOf(dir) {
  const found = readdirSync(dir, { recursive: true, encoding: 'utf8' }).find((file) =>
    file.endsWith('checks.json'),
  )
  return found ? JSON.parse(readFileSync(join(dir, found), 'utf8')) : []
}

rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const command = `node ${JSON.stringify(join(root, 'scripts/conformance-client.js'))}`
const results = []
for (const { name, versions } of scenarios()) {
  const dir = join(out, name.replace(/\//g, '_'))
  const started = Date.now()
  const run = spawnSync(cli, ['client', '--command', command, '--scenario', name, '-o', dir], {
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  })
  const checks = existsSync(dir) ? checksOf(dir) : []
  const count = (status) => checks.filter((check) => check.status === status).length
  const [succeeded, failed, warnings] = ['SUCCESS', 'FAILURE', 'WARNING'].map(count)
  // The suite exits 1 on a warning too. A warning is its own "acceptable, but…" (sse-retry's
  // reconnect landing 200-500 ms after the server's retry, as on a machine busy with the other
  // runners): reported in the table, not a failure. Too early or twice the retry is a FAILURE.
  const onlyWarned = run.status === 1 && warnings > 0
  const passed = (run.status === 0 || onlyWarned) && failed === 0 && checks.length > 0
  const required =
    versions.some((version) => REQUIRED_VERSIONS.includes(version)) && !NOT_OFFERED[name]
  results.push({
    name,
    versions,
    required,
    passed,
    succeeded,
    failed,
    warnings,
    seconds: (Date.now() - started) / 1000,
    ...(NOT_OFFERED[name] ? { note: NOT_OFFERED[name] } : {}),
  })
  console.log(
    `${passed ? 'pass' : 'FAIL'}  ${name} [${versions.join(',')}]${required ? '' : ' (reported)'}: ` +
      `${succeeded} passed, ${failed} failed, ${warnings} warnings`,
  )
  if (!passed && required) console.log(run.stdout.split('\n').slice(-25).join('\n'))
}

const table = [
  '| scenario | spec versions | result | checks passed / failed |',
  '| --- | --- | --- | --- |',
  ...results.map(
    (r) =>
      `| \`${r.name}\` | ${r.versions.join(', ')} | ${r.passed ? 'pass' : r.required ? '**FAIL**' : 'fail (reported)'}${r.note ? ` — ${r.note}` : ''} | ${r.succeeded} / ${r.failed}${r.warnings ? `, ${r.warnings} warnings` : ''} |`,
  ),
].join('\n')
writeFileSync(join(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)
writeFileSync(join(out, 'results.md'), `${table}\n`)
const required = results.filter((r) => r.required)
const reported = results.filter((r) => !r.required)
const passed = required.filter((r) => r.passed).length
const failed = required.length - passed
console.log(`\n${table}\n`)
console.log(
  `reported, not required: ${reported.filter((r) => r.passed).length}/${reported.length} pass`,
)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
