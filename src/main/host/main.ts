import { parseArgs } from 'node:util'
import { createCore } from '#core/core'
import { demoBootstrap } from '../demo-bootstrap/bootstrap'
import { rendererDir } from '../paths'
import { startBrowserHost } from './server'

/** Connect this long after a page opened its socket, if it has not got its server list by then. */
const FIRST_PAGE_MS = 2000
/** Connect anyway when no page is opened within this long. */
const NO_PAGE_CONNECT_MS = 3000

/** `npm run start:browser -- [--config FILE] [--port N]` */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' },
      port: { type: 'string', default: '0' },
    },
  })
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port: expected a port number, got ${values.port}`)
    process.exit(2)
  }
  // The page first, then the servers: connecting 200 of them (and spawning the stdio ones)
  // takes the CPU the first page needs. They connect once a page has its server list (or a
  // while after it opened), or after a while when nobody opens one; until then they show as
  // connecting.
  let pageUp!: () => void
  const firstPage = new Promise<void>((resolve) => (pageUp = resolve))
  setTimeout(pageUp, NO_PAGE_CONNECT_MS).unref()
  const core = await createCore({
    connect: true,
    demo: demoBootstrap(),
    monitor: true,
    // Forms servers send are answered in the page (the elicitation dialog).
    elicit: 'windows',
    connectAfter: firstPage,
    ...(values.config ? { configPath: values.config } : {}),
  })
  const host = await startBrowserHost({
    core,
    rendererDir: rendererDir(),
    port,
    onClient: () => setTimeout(pageUp, FIRST_PAGE_MS).unref(),
    onAnswered: (channel) => {
      if (channel === 'servers:list') pageUp()
    },
  })
  console.log(`RAG Console (browser host) is running. Open: ${host.url}`)
  console.log(`Registry: ${core.info().registry.label}`)
  const metrics = core.monitoring?.endpoint
  if (metrics) console.log(`Metrics: ${metrics.url}`)

  let closing = false
  const shutdown = async (): Promise<void> => {
    if (closing) return
    closing = true
    await host.close()
    await core.dispose()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown())
  process.on('SIGTERM', () => void shutdown())
}

main().catch((error: unknown) => {
  console.error('browser host failed to start:', error instanceof Error ? error.message : error)
  process.exit(1)
})
