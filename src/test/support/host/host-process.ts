import { spawn, type ChildProcess } from 'node:child_process'
import WebSocket from 'ws'
import { builtFile } from '../process/built'
import { eachLine } from '../process/start-child'
import { WS_PATH } from '#main/host/server'

/** `out/main/host.js` running as its own process, as `npm run start:browser` starts it. */
export interface HostProcess {
  /** The page's URL with its token, as printed. */
  url: string
  /** Every line it printed so far. */
  lines: string[]
  child: ChildProcess
  /** Opens the contract's WebSocket, as the page does. */
  connect(): Promise<IpcClient>
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>
}

/** The contract over the host's WebSocket: `{id, channel, request}` answered `{id, response}`. */
export interface IpcClient {
  call<T = unknown>(channel: string, request?: unknown): Promise<IpcResponse<T>>
  close(): void
}

export type IpcResponse<T> =
  | { ok: true; value: T }
  | { ok: false; error: { code: string; message: string; origin?: string; details?: object } }

/** Starts the built host on a free port; resolves once it prints its URL. */
export function startHostProcess(options: {
  config?: string
  env: NodeJS.ProcessEnv
  timeoutMs?: number
}): Promise<HostProcess> {
  const args = [builtFile('main/host.js'), '--port', '0']
  if (options.config) args.push('--config', options.config)
  const child = spawn(process.execPath, args, {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const lines: string[] = []
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the host printed no URL:\n${lines.join('\n')}`)),
      options.timeoutMs ?? 30_000,
    )
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the host exited (${code}):\n${lines.join('\n')}`))
    })
    for (const stream of [child.stdout!, child.stderr!]) {
      eachLine(stream, (line) => {
        lines.push(line)
        const url = /Open: (http:\/\/\S+)/.exec(line)?.[1]
        if (!url) return
        clearTimeout(timer)
        resolve({
          url,
          lines,
          child,
          connect: () => connectIpc(url),
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
            await exited
          },
        })
      })
    }
  })
}

/** Opens the host's WebSocket with the token of `url` and the host's own origin. */
export async function connectIpc(url: string): Promise<IpcClient> {
  const { origin, hash } = new URL(url)
  const token = new URLSearchParams(hash.slice(1)).get('token')
  const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}${WS_PATH}?token=${token}`, { origin })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  let next = 0
  const waiting = new Map<number, (response: never) => void>()
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; response?: never }
    if (message.id !== undefined) waiting.get(message.id)?.(message.response!)
    waiting.delete(message.id!)
  })
  return {
    call: (channel, request) =>
      new Promise((resolve) => {
        next += 1
        waiting.set(next, resolve as (response: never) => void)
        ws.send(JSON.stringify({ id: next, channel, request }))
      }),
    close: () => ws.close(),
  }
}
