import { spawn } from 'node:child_process'
import { join } from 'node:path'
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
 * Starts `node out/main/demo.js …args` and resolves at its `ready <url>` line (15 s at most).
 * Always pass `--port 0` (or a port this spec got from a server it stopped).
 */
export function startDemoServer(args: string[]): Promise<DemoServer> {
  const child = spawn(process.execPath, [demoScript, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGKILL')
    await exited
  }
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`demo ${args.join(' ')} did not get ready:\n${output}`))
    }, 15_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const ready = /^ready (http:\/\/127\.0\.0\.1:(\d+)\S*)/m.exec(output)
      if (!ready) return
      clearTimeout(timer)
      resolve({ url: ready[1]!, port: Number(ready[2]), stop })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`demo ${args.join(' ')} exited with ${code}:\n${output}`))
    })
  })
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
