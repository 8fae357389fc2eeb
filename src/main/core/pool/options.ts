import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff'
import { MAX_STDIO_MESSAGE } from './stdio-transport'
import {
  DEFAULT_DEGRADED,
  DEFAULT_HEALTH,
  type DegradedThresholds,
  type HealthOptions,
} from './health'

/** Tunables of the pool; every field has a default (see `DEFAULT_POOL_OPTIONS`). */
export interface PoolOptions {
  /** Health probe period while connected; 0 turns probing off. */
  probeIntervalMs: number
  /** Deadline of one probe (capped by the server's own `timeoutMs`). */
  probeTimeoutMs: number
  /**
   * Deadline of every connect (start, `initialize`, `tools/list`) instead of each server's
   * `timeoutMs`: the CLI's `--timeout` and `call --connect-timeout`. Absent: the server's.
   */
  connectTimeoutMs?: number
  /** Calls in flight per server; later ones wait. */
  maxConcurrentCalls: number
  backoff: BackoffOptions
  health: HealthOptions
  degraded: DegradedThresholds
  /** Lines kept per server (stderr, launch output, pool notes). */
  logLines: number
  /**
   * Protocol log entries kept per server (the Workbench's traffic view); 0 keeps no protocol
   * log at all, for a headless process nobody inspects.
   */
  protocolEntries: number
  clientInfo: { name: string; version: string }
  /** Largest message read from a stdio server, in bytes; a larger reply fails its call. */
  maxMessageBytes: number
  /** Source of jitter. */
  random: () => number
}

export const DEFAULT_POOL_OPTIONS: PoolOptions = {
  probeIntervalMs: 15_000,
  probeTimeoutMs: 5_000,
  maxConcurrentCalls: 8,
  backoff: DEFAULT_BACKOFF,
  health: DEFAULT_HEALTH,
  degraded: DEFAULT_DEGRADED,
  logLines: 500,
  protocolEntries: 1000,
  clientInfo: { name: 'rag-console', version: '0.1.0' },
  maxMessageBytes: MAX_STDIO_MESSAGE,
  random: Math.random,
}

/** Options as callers give them: any field, nested groups partially. */
export type PoolOptionsInput = Partial<
  Omit<PoolOptions, 'backoff' | 'health' | 'degraded'> & {
    backoff: Partial<PoolOptions['backoff']>
    health: Partial<PoolOptions['health']>
    degraded: Partial<PoolOptions['degraded']>
  }
>

/** Fills in every default, nested groups field by field. */
export function poolOptions(given: PoolOptionsInput = {}): PoolOptions {
  return {
    ...DEFAULT_POOL_OPTIONS,
    ...given,
    backoff: { ...DEFAULT_POOL_OPTIONS.backoff, ...given.backoff },
    health: { ...DEFAULT_POOL_OPTIONS.health, ...given.health },
    degraded: { ...DEFAULT_POOL_OPTIONS.degraded, ...given.degraded },
  }
}
