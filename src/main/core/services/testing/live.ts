import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ServerState } from '../../../../shared/model/server'
import type { Core } from '../../core'
import { waitFor } from '../../pool/fixtures/helpers'

export { waitFor }
export { startCore, type LiveCore } from './live-core'

/** The delayed rag-tools-v1 fixture server (`../fixtures/rag-fixture.mjs`). */
export const RAG_FIXTURE = fileURLToPath(new URL('../fixtures/rag-fixture.mjs', import.meta.url))

/** A rag-mcp.json entry running the fixture over stdio with these arguments. */
export function fixtureEntry(args: string[], extra: Record<string, unknown> = {}): object {
  return {
    transport: 'stdio',
    command: process.execPath,
    args: [RAG_FIXTURE, ...args],
    dialect: 'rag-tools-v1',
    timeoutMs: 5_000,
    ...extra,
  }
}

/** A process the test started; `stop` ends it (SIGTERM, then SIGKILL after 3 s). */
export interface Started {
  url: string
  /** Further `<word> <url>` lines it printed, by word (`docs`, …). */
  lines: string[]
  stop(): Promise<void>
}

/**
 * Starts `node <args>` and resolves at the first stdout/stderr line matching `ready`, whose
 * first URL is taken; rejects with its output when it exits or stays silent past the deadline.
 */
export function startProcess(args: string[], ready: RegExp, timeoutMs = 15_000): Promise<Started> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const lines: string[] = []
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000)
    await exited
    clearTimeout(timer)
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`${args.join(' ')}: not ready within ${timeoutMs} ms\n${lines.join('\n')}`))
    }, timeoutMs)
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = ''
      stream.setEncoding('utf8')
      stream.on('data', (chunk: string) => {
        buffer += chunk
        const parts = buffer.split('\n')
        buffer = parts.pop() ?? ''
        for (const line of parts) {
          lines.push(line)
          if (ready.test(line)) {
            clearTimeout(timer)
            resolve({ url: /(https?:\/\/\S+)/.exec(line)?.[1] ?? '', lines, stop })
          }
        }
      })
    }
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${args.join(' ')} exited with ${code}\n${lines.join('\n')}`))
    })
  })
}

/** The fixture over streamable HTTP on a free loopback port. */
export function startHttpFixture(args: string[]): Promise<Started> {
  return startProcess([RAG_FIXTURE, '--http', ...args], /^listening on /)
}

/** A loopback URL nothing listens on (the discard port). */
export const DOWN_URL = 'http://127.0.0.1:9/mcp'

/** Waits until every listed server of the core's pool is in `state`. */
export function whenState(
  core: Core,
  ids: string[],
  state: ServerState = 'ready',
  timeoutMs = 15_000,
): Promise<true> {
  return waitFor(
    () => ids.every((id) => core.pool.status(id).state === state),
    timeoutMs,
    `${ids.join(', ')} to be ${state}`,
  )
}
