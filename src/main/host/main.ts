import { parseArgs } from 'node:util'
import { createCore } from '../core/core'
import { rendererDir } from '../paths'
import { startBrowserHost } from './server'

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
  const core = await createCore({
    connect: true,
    monitor: true,
    ...(values.config ? { configPath: values.config } : {}),
  })
  const host = await startBrowserHost({ core, rendererDir: rendererDir(), port })
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
