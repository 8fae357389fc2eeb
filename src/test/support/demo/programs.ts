import { spawn } from 'node:child_process'
import { builtFile } from '../process/built'
import { SAFETY_NET_MS } from '../process/limits'
import { eachLine } from '../process/start-child'

/** A built demo program running as a child process (tests only). */
export interface DemoProcess {
  /** URL from its `ready` line. */
  url: string
  /** Document host URL from its `docs` line, when it serves one. */
  docs?: string | undefined
  /** Everything it printed so far (stdout and stderr lines). */
  output: string[]
  stop(): Promise<void>
}

/** Options that make a program serve its own document host on a free port. */
export const OWN_DOC_HOST = ['--serve-docs', '--doc-host', 'http://127.0.0.1:0']

/** Path of the built entry (refuses a stale build). */
export const demoScript = (): string => builtFile('main/demo.js')

/**
 * Starts `node out/main/demo.js …args` and resolves at its `ready <url>` line; rejects with its
 * output if it exits or stays silent past the deadline.
 */
export function startDemo(args: string[], timeoutMs = SAFETY_NET_MS): Promise<DemoProcess> {
  const child = spawn(process.execPath, [demoScript(), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  let docs: string | undefined
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
    await exited
    clearTimeout(timer)
  }
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      void stop()
      reject(new Error(`demo ${args.join(' ')}: ${why}\n${output.join('\n')}`))
    }
    const timer = setTimeout(() => fail(`no ready line within ${timeoutMs} ms`), timeoutMs)
    const onLine = (line: string): void => {
      output.push(line)
      const docsLine = /^docs (\S+?)\/?(\s|$)/.exec(line)
      if (docsLine) docs = docsLine[1]
      const ready = /^ready (\S+)/.exec(line)
      if (ready) {
        clearTimeout(timer)
        resolve({ url: ready[1]!, docs, output, stop })
      }
    }
    for (const stream of [child.stdout, child.stderr]) eachLine(stream, onLine)
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(`exited with code ${code}`)
    })
  })
}

/** A raw HTTP answer. */
export interface HttpReply {
  status: number
  headers: Headers
  /** Parsed JSON body, or undefined when empty. */
  body: Record<string, unknown> | undefined
  text: string
}

/** POSTs one JSON-RPC message with raw fetch. */
export async function postJson(
  url: string,
  message: unknown,
  headers: Record<string, string> = {},
): Promise<HttpReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    text,
  }
}

/** A `tools/call` request body. */
export function toolCallMessage(
  name: string,
  args: Record<string, unknown>,
  id: number | string = 1,
): unknown {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }
}

/** Polls `check` until it returns a value, or fails after the deadline. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = SAFETY_NET_MS,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
