// Test helpers for the pool's tests and benchmark.
import { createServer } from 'node:net'
import { afterEach, expect } from 'vitest'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ServerConfig } from '#shared/config/schema'
import { ConsoleError } from '#shared/errors'
import type { ServerStatus } from '#shared/model/server'
import { SAFETY_NET_MS } from '../process/limits'
import { EventBus } from '#core/events'
import { systemClock, type Clock } from '#core/pool/clock'
import { ConnectionPool, type PoolDeps, type PoolOptionsInput } from '#core/pool/pool'
import { EnvSecretResolver } from './env-secrets'
import { liveServerConfig } from '../config/server-config'

export { liveServerConfig }

/** The MCP servers the pool's tests start (src/test/fixtures/pool/). */
export const fixturesDir = fileURLToPath(new URL('../../fixtures/pool/', import.meta.url))
export const fixture = (name: string): string => join(fixturesDir, name)

/** A stdio config running one of the `.mjs` fixtures with this Node. */
export function stdioFixture(id: string, file: string, args: string[] = []): ServerConfig {
  return liveServerConfig({
    id,
    transport: 'stdio',
    command: process.execPath,
    args: [fixture(file), ...args],
  })
}

/** Fast timings for tests: quick retries, no periodic probe unless asked. */
export const TEST_POOL_OPTIONS: PoolOptionsInput = {
  probeIntervalMs: 0,
  backoff: { initialMs: 50, maxMs: 400, factor: 2, jitter: 0.1 },
}

export interface TestPool {
  pool: ConnectionPool
  events: EventBus
  secrets: EnvSecretResolver
  /** Every `server:status` event, in order. */
  statuses: { server: string; status: ServerStatus }[]
  /**
   * Resolves when `server` reaches `state` (already there counts), checked at every
   * `server:status` event; fails after `timeoutMs` (default: the safety net).
   */
  waitForState(
    server: string,
    state: ServerStatus['state'],
    timeoutMs?: number,
  ): Promise<ServerStatus>
}

export function createTestPool(
  options: PoolOptionsInput = {},
  env: Record<string, string | undefined> = {},
  clock?: Clock,
  deps: Pick<PoolDeps, 'elicit'> = {},
): TestPool {
  const events = new EventBus()
  const secrets = new EnvSecretResolver(env)
  const statuses: TestPool['statuses'] = []
  events.on('server:status', (event) => statuses.push(event))
  const pool = new ConnectionPool({
    events,
    secrets,
    options: { ...TEST_POOL_OPTIONS, ...options },
    ...(clock ? { clock } : {}),
    ...deps,
  })
  const waitForState: TestPool['waitForState'] = (server, state, timeoutMs) =>
    untilStatus(
      events,
      () => {
        const status = pool.serverIds().includes(server) ? pool.status(server) : undefined
        return status?.state === state ? status : undefined
      },
      `${server} to be ${state}`,
      timeoutMs,
    )
  return { pool, events, secrets, statuses, waitForState }
}

/** A clock whose time moves only when told to; its timers are real. */
export function manualClock(start = 1_000_000): Clock & { advance(ms: number): void } {
  let now = start
  return { ...systemClock, now: () => now, advance: (ms) => void (now += ms) }
}

/**
 * Resolves with the first value `probe` returns (not undefined/false), asked now and after every
 * `server:status` event on `events`; fails after `timeoutMs` (default: the safety net).
 */
export function untilStatus<T>(
  events: EventBus,
  probe: () => T | undefined | false,
  what: string,
  timeoutMs = SAFETY_NET_MS,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const value = probe()
      if (value === undefined || value === false) return
      stop()
      resolve(value)
    }
    const off = events.on('server:status', check)
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`))
    }, timeoutMs)
    const stop = (): void => {
      off()
      clearTimeout(timer)
    }
    check()
  })
}

/** Whether a process with this id exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** A loopback port that was free a moment ago (for servers that cannot report theirs). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** The text of the first content block of a tool result. */
export function textOf(result: { content?: unknown }): string {
  const content = result.content as { type: string; text?: string }[] | undefined
  return content?.[0]?.text ?? ''
}

/**
 * Per-file test scope: pools and servers made through it are disposed after each test, newest
 * first.
 */
export function useTestScope(): {
  pool: (...args: Parameters<typeof createTestPool>) => TestPool
  defer: (cleanup: () => Promise<void>) => void
} {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return {
    pool: (...args) => {
      const pool = createTestPool(...args)
      cleanups.push(() => pool.pool.dispose())
      return pool
    },
    defer: (cleanup) => void cleanups.push(cleanup),
  }
}

/** The ConsoleError a promise rejects with (fails the test if it resolves or throws another). */
export async function rejection(promise: Promise<unknown>): Promise<ConsoleError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ConsoleError)
  return error as ConsoleError
}
