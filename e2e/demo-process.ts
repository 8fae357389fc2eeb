import { join } from 'node:path'
import { startChild } from '#test/support/process/start-child'
import { root } from './host'

/** The built demo programs (`npm run build` first). */
export const demoScript = join(root, 'out/main/demo.js')

/** A demo server the spec started itself, so it can kill it and start it again. */
export interface DemoServer {
  /** The URL from its `ready` line. */
  url: string
  port: number
  stop: () => Promise<void>
}

/**
 * Starts `node out/main/demo.js …args` and resolves at its `ready <url>` line.
 * Always pass `--port 0` (or a port this spec got from a server it stopped).
 */
export async function startDemoServer(args: string[]): Promise<DemoServer> {
  const child = await startChild([demoScript, ...args], (lines) => {
    const ready = lines
      .map((line) => /^ready (http:\/\/127\.0\.0\.1:(\d+)\S*)/.exec(line))
      .find(Boolean)
    return ready ? { url: ready[1]!, port: Number(ready[2]) } : undefined
  })
  return { ...child.ready, stop: child.stop }
}

/** The rag-search demo on a free port, accepting only `apiKey`, with its own document host. */
export const startRagSearch = (apiKey: string): Promise<DemoServer> =>
  startDemoServer([
    'rag-search',
    '--port',
    '0',
    '--api-key',
    apiKey,
    '--serve-docs',
    '--doc-host',
    'http://127.0.0.1:0',
  ])
