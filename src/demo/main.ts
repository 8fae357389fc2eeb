import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { DEMO_USERS } from './access'
import { setBreaks } from './breaks'
import { endpointLine, endpointRegistry, planEndpoints, stdioTarget } from './endpoints'
import { DEMO_SECRETS } from './keys'
import { setLatency } from './latency'
import { PORT_OFFSETS, USAGE, UsageError, parseOptions, type DemoOptions } from './options'
import {
  ragTools,
  serveDocs,
  startProgram,
  type HttpProgram,
  type Log,
  type Started,
} from './programs'

const out: Log = (line) => process.stdout.write(`${line}\n`)
const err: Log = (line) => process.stderr.write(`${line}\n`)

type Closer = () => Promise<void>

/** Closes everything on SIGINT/SIGTERM, then exits. */
function closeOnSignal(closers: Closer[]): void {
  const stop = (): void => {
    void Promise.allSettled(closers.map((close) => close())).then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

/** Keeps a process alive that serves nothing itself (its port is served by another demo process). */
function stayAlive(): void {
  setInterval(() => undefined, 1 << 30)
}

function portOf(program: HttpProgram, options: DemoOptions): number {
  return options.port ?? (options.portBase === 0 ? 0 : options.portBase + PORT_OFFSETS[program])
}

async function runOne(program: HttpProgram, options: DemoOptions): Promise<void> {
  const closers: Closer[] = []
  closeOnSignal(closers)
  let docHost = options.docHost
  if (options.serveDocs && program !== 'doc-host') {
    const docs = await serveDocs(options, out)
    docHost = docs.docHost
    closers.push(docs.close)
  }
  const started = await startProgram(program, portOf(program, options), options, docHost)
  closers.push(started.close)
  out(`ready ${started.url}${started.shared ? ' (already served by another demo process)' : ''}`)
  if (started.shared) stayAlive()
}

async function runStdio(options: DemoOptions): Promise<void> {
  let docHost = options.docHost
  let closeDocs: Closer = async () => {}
  if (options.serveDocs) {
    const docs = await serveDocs(options, err)
    docHost = docs.docHost
    closeDocs = docs.close
  }
  const { tools, name } = ragTools(options, docHost, true)
  const { serveStdio } = await import('./rag-tools/server')
  err(`ready stdio (${name})`)
  await serveStdio(tools, name)
  await closeDocs()
  process.exit(0)
}

async function runAll(options: DemoOptions): Promise<void> {
  const closers: Closer[] = []
  closeOnSignal(closers)
  const docs = await startProgram('doc-host', portOf('doc-host', options), options, options.docHost)
  closers.push(docs.close)
  const docHost = docs.url.replace(/\/$/, '')
  const programs: HttpProgram[] = ['rag-search', 'rag-tools-v1', 'ragbox', 'vtex']
  const started: Started[] = [docs]
  for (const program of programs) {
    const one = await startProgram(program, portOf(program, options), options, docHost)
    closers.push(one.close)
    started.push(one)
  }
  const notes: Partial<Record<HttpProgram, string>> = {
    'rag-search': 'Authorization: Bearer <key>, x-user-id, x-session-tags',
    'rag-tools-v1': 'legacy SSE (Engineering wiki)',
    ragbox: 'X-API-Key: <key>',
    vtex: 'per-method endpoints /handshake, /tools/call, … and the router /<instance>',
  }
  for (const one of started) {
    const note = [
      notes[one.program],
      one.shared ? 'already served by another demo process' : undefined,
    ]
      .filter(Boolean)
      .join('; ')
    out(`${one.program.padEnd(13)} ${one.url}${note ? `   (${note})` : ''}`)
  }
  const script = fileURLToPath(import.meta.url)
  out(
    `rag-tools-v1 over stdio (Company docs): node ${script} rag-tools-v1 --stdio --doc-host ${docHost}`,
  )
  out(`keys: node ${script} keys   users: node ${script} users`)
  out(`ready ${docHost}/`)
  if (started.some((one) => one.shared)) stayAlive()
}

/**
 * `all --endpoints N`: the document host plus N endpoints, each a program instance of its own
 * on its own port, as an organisation's registry would list many servers.
 */
async function runEndpoints(options: DemoOptions, count: number): Promise<void> {
  const closers: Closer[] = []
  closeOnSignal(closers)
  const docs = await startProgram('doc-host', portOf('doc-host', options), options, options.docHost)
  closers.push(docs.close)
  const docHost = docs.url.replace(/\/$/, '')
  const plan = planEndpoints(count, options.portBase, options.latencies)
  const started = await Promise.all(
    plan.map(async (endpoint) => {
      // rag-tools-v1 names itself after the endpoint, so each one is a distinct server.
      const own = { ...options, name: options.name ?? endpoint.id, latencyMs: endpoint.latencyMs }
      const one = await startProgram(endpoint.program, endpoint.port, own, docHost)
      closers.push(one.close)
      return { ...endpoint, url: one.url, shared: one.shared }
    }),
  )
  for (const one of started) out(endpointLine(one.id, one.program, one.url))
  if (options.registry) {
    const script = fileURLToPath(import.meta.url)
    const target = stdioTarget(process.execPath, script, docHost, options.latencyMs)
    const registry = endpointRegistry(started, { count: options.stdioServers, target })
    writeFileSync(options.registry, `${JSON.stringify(registry, null, 2)}\n`)
    out(`registry ${options.registry} (${Object.keys(registry).length} servers)`)
  }
  out(`ready ${docHost}/`)
  if (started.some((one) => one.shared)) stayAlive()
}

async function main(argv: string[]): Promise<void> {
  let options: DemoOptions
  try {
    options = parseOptions(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    if (error.message) err(`demo: ${error.message}\n`)
    err(USAGE)
    process.exit(error.message ? 2 : 0)
  }
  setBreaks(options.breaks)
  setLatency(options.latencyMs)
  switch (options.command) {
    case 'keys':
      return out(JSON.stringify(DEMO_SECRETS, null, 2))
    case 'users':
      return out(JSON.stringify(DEMO_USERS, null, 2))
    case 'all':
      return options.endpoints ? runEndpoints(options, options.endpoints) : runAll(options)
    case 'rag-tools-v1':
      return options.stdio ? runStdio(options) : runOne('rag-tools-v1', options)
    case 'rag-search':
    case 'ragbox':
    case 'vtex':
    case 'oauth':
    case 'doc-host':
      return runOne(options.command, options)
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  err(`demo: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
