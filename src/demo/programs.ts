import { docHostHandler } from './doc-host/server'
import { listen, PortInUseError, type Handler, type Listening } from './http/listen'
import { DOC_SIGNING_SECRET, RAG_SEARCH_API_KEY } from './keys'
import type { PORT_OFFSETS } from './options'
import { type DemoOptions } from './options'
import { OAUTH_PATHS } from './oauth/paths'
import { ragboxHandler } from './ragbox/server'
import { ragSearchHandler } from './rag-search/server'
import { SSE_RESOURCES, STDIO_RESOURCES } from './rag-tools/resources'
import { RagTools } from './rag-tools/tools'
import { VTEX_BASE, vtexHandler } from './vtex/server'

/** Programs that listen on a port. */
export type HttpProgram = keyof typeof PORT_OFFSETS

/** Path each program's printed URL ends with. */
export const PROGRAM_PATHS: Record<HttpProgram, string> = {
  'doc-host': '/',
  'rag-search': '/mcp',
  'rag-tools-v1': '/sse',
  ragbox: '/api/mcp',
  vtex: VTEX_BASE,
  oauth: OAUTH_PATHS.http,
}

/** A running program (or one already served by another demo process on its port). */
export interface Started {
  program: HttpProgram
  url: string
  /** True when another demo process already serves this program on the port. */
  shared: boolean
  close(): Promise<void>
}

export type Log = (line: string) => void

/** The rag-tools-v1 engine for stdio (Company docs) or SSE (Engineering wiki). */
export function ragTools(
  options: DemoOptions,
  docHost: string,
  stdio: boolean,
): { tools: RagTools; name: string } {
  const name = options.name ?? (stdio ? 'company-docs' : 'engineering-wiki')
  const resources = options.sources ?? (stdio ? STDIO_RESOURCES : SSE_RESOURCES)
  return {
    name,
    tools: new RagTools({
      name,
      resources,
      docHost,
      ttlSeconds: options.ttlSeconds,
      secret: DOC_SIGNING_SECRET,
    }),
  }
}

/**
 * The handler of one program. The MCP SDK's servers and Express are loaded only by the programs
 * that use them (rag-tools-v1 and the OAuth demo): a process serving rag-search, RAGbox, VTEX or
 * the document host starts without them, in about half the time.
 */
async function handlerFor(
  program: HttpProgram,
  options: DemoOptions,
  docHost: string,
): Promise<Handler> {
  switch (program) {
    case 'doc-host':
      return docHostHandler({ secret: DOC_SIGNING_SECRET })
    case 'rag-search':
      return ragSearchHandler({
        apiKey: options.apiKey ?? RAG_SEARCH_API_KEY,
        docHost,
        ttlSeconds: options.ttlSeconds,
        secret: DOC_SIGNING_SECRET,
        maxSegments: options.maxSegments,
        latencyMs: options.latencyMs,
      })
    case 'rag-tools-v1': {
      const { tools, name } = ragTools(options, docHost, false)
      const { sseHandler } = await import('./rag-tools/server')
      return sseHandler(tools, name, options.latencyMs)
    }
    case 'ragbox':
      return ragboxHandler({
        rateLimit: options.rateLimit,
        queryRateLimit: options.queryRateLimit,
        rateWindowMs: options.rateWindowSeconds * 1000,
        latencyMs: options.latencyMs,
      })
    case 'vtex':
      return vtexHandler(options.latencyMs)
    case 'oauth': {
      const { tools, name } = ragTools(options, docHost, false)
      const { oauthHandler } = await import('./oauth/server')
      return oauthHandler({
        tools,
        name,
        tokenTtlSeconds: options.tokenTtlSeconds,
        requireScope: options.requireScope,
        approveAs: options.approveAs,
        exactRedirectUris: options.exactRedirectUris,
      })
    }
  }
}

/**
 * Starts one program on a port. When the port is held by another demo process serving the
 * same program (e.g. `npm run demo:servers` is already running), reports it as shared instead
 * of failing, so a console that launches the demo still reaches a working server.
 */
export async function startProgram(
  program: HttpProgram,
  port: number,
  options: DemoOptions,
  docHost: string,
): Promise<Started> {
  const path = PROGRAM_PATHS[program]
  let listening: Listening
  try {
    listening = await listen(program, await handlerFor(program, options, docHost), port)
  } catch (error) {
    if (error instanceof PortInUseError && error.occupant === program) {
      return {
        program,
        url: `http://127.0.0.1:${port}${path}`,
        shared: true,
        close: async () => {},
      }
    }
    throw error
  }
  return { program, url: `${listening.origin}${path}`, shared: false, close: listening.close }
}

/** How often a process whose doc-host port was taken retries to bind it. */
const TAKEOVER_INTERVAL_MS = 2000

/**
 * `--serve-docs`: runs the document host in this process on the `--doc-host` port (port 0:
 * any free port). If another demo process already serves it there, this one relies on it and
 * takes the port over when that process stops. Resolves with the document host's base URL.
 */
export async function serveDocs(
  options: DemoOptions,
  log: Log,
): Promise<{ docHost: string; close(): Promise<void> }> {
  const wanted = new URL(options.docHost)
  const port = Number(wanted.port || 80)
  const handler = docHostHandler({ secret: DOC_SIGNING_SECRET })
  try {
    const listening = await listen('doc-host', handler, port)
    log(`docs ${listening.origin}/`)
    return { docHost: listening.origin, close: listening.close }
  } catch (error) {
    if (!(error instanceof PortInUseError) || error.occupant !== 'doc-host') throw error
  }
  log(`docs ${options.docHost}/ (served by another demo process; taken over if it stops)`)
  let current: Listening | undefined
  const timer = setInterval(() => {
    listen('doc-host', handler, port).then(
      (listening) => {
        current = listening
        clearInterval(timer)
        log(`docs ${listening.origin}/ (taken over)`)
      },
      () => undefined,
    )
  }, TAKEOVER_INTERVAL_MS)
  timer.unref()
  return {
    docHost: options.docHost,
    close: async () => {
      clearInterval(timer)
      await current?.close()
    },
  }
}
