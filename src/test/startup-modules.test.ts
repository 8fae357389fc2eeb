import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { builtFile } from './support/process/built'
import { SAFETY_NET_MS } from './support/process/limits'
import { eachLine } from './support/process/start-child'

/**
 * Every console process (each CLI command, the browser host, the app) used to load
 * OpenTelemetry and prom-client at start, a third of a CLI command's start-up CPU, though only
 * a console that exports OTLP or serves `/metrics` uses them; every demo server process loaded
 * Express and the MCP SDK's servers, which two of its six programs use. These tests run the
 * built entries with a module hook that records every module Node resolves.
 */

const work = mkdtempSync(join(tmpdir(), 'rc-startup-'))
const hook = join(work, 'record-loads.mjs')
writeFileSync(
  hook,
  `import { registerHooks } from 'node:module'
import { appendFileSync } from 'node:fs'
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context)
    appendFileSync(process.env.RECORD_LOADS, resolved.url + '\\n')
    return resolved
  },
})
`,
)
const registry = join(work, 'rag-mcp.json')
// Nothing listens on port 9: the pool tries it and gives up at once.
writeFileSync(registry, JSON.stringify({ nowhere: { url: 'http://127.0.0.1:9/mcp' } }))

let runs = 0

/**
 * Runs a built entry with the hook until it exits or prints a line `until` accepts (then stops
 * it), and returns the packages it loaded.
 */
async function packagesLoaded(
  entry: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; until?: (line: string) => boolean } = {},
): Promise<Set<string>> {
  const record = join(work, `loads-${++runs}.txt`)
  writeFileSync(record, '')
  const child = spawn(
    process.execPath,
    ['--import', pathToFileURL(hook).href, builtFile(entry), ...args],
    {
      env: {
        ...process.env,
        RAG_CONSOLE_HOME: mkdtempSync(join(work, 'home-')),
        RECORD_LOADS: record,
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const output: string[] = []
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${entry} ${args.join(' ')} did not finish:\n${output.join('\n')}`))
    }, SAFETY_NET_MS)
    for (const stream of [child.stdout, child.stderr]) {
      eachLine(stream, (line) => {
        output.push(line)
        if (options.until?.(line)) child.kill('SIGTERM')
      })
    }
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
  })
  const urls = readFileSync(record, 'utf8').split('\n')
  // The hook saw the program's own chunks load: an empty record proves nothing.
  expect(
    urls.filter((url) => url.includes('/out/main/')),
    output.join('\n'),
  ).not.toEqual([])
  const packages = new Set<string>()
  for (const url of urls) {
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]
    if (name) packages.add(name)
  }
  return packages
}

const telemetryPackages = (packages: Set<string>): string[] =>
  [...packages].filter((name) => name.startsWith('@opentelemetry/') || name === 'prom-client')

describe('what a console loads at start', () => {
  it('a CLI command that connects loads neither OpenTelemetry nor prom-client', async () => {
    const packages = await packagesLoaded('main/cli.js', ['--config', registry, 'servers'])
    expect(telemetryPackages(packages)).toEqual([])
  })

  it('the browser host does not load them while it exports and serves nothing', async () => {
    const packages = await packagesLoaded('main/host.js', ['--port', '0', '--config', registry], {
      until: (line) => line.includes('Open: http'),
    })
    expect(telemetryPackages(packages)).toEqual([])
  })

  it('a demo server that needs neither loads neither the MCP SDK nor Express', async () => {
    const packages = await packagesLoaded('main/demo.js', ['rag-search', '--port', '0'], {
      until: (line) => line.startsWith('ready http'),
    })
    expect([...packages]).not.toContain('@modelcontextprotocol/sdk')
    expect([...packages]).not.toContain('express')
  })

  it('a monitor that serves /metrics and exports OTLP loads both', async () => {
    const packages = await packagesLoaded(
      'main/cli.js',
      ['--config', registry, 'monitor', '--metrics-port', '0', '--interval', '1h'],
      {
        // An endpoint nothing listens on: export fails later, quietly; loading is what counts.
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' },
        until: (line) => line.includes('metrics at http'),
      },
    )
    expect(packages).toContain('prom-client')
    expect(packages).toContain('@opentelemetry/sdk-trace')
    expect(packages).toContain('@opentelemetry/sdk-metrics')
  })

  it('the OAuth demo loads both, as it serves with them', async () => {
    const packages = await packagesLoaded('main/demo.js', ['oauth', '--port', '0'], {
      until: (line) => line.startsWith('ready http'),
    })
    expect(packages).toContain('@modelcontextprotocol/sdk')
    expect(packages).toContain('express')
  })
})
