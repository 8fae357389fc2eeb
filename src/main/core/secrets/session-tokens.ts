import type { SessionTokenInfo } from '#shared/ipc/secrets'
import type { Redactor } from './types'

interface Token {
  value: string
  setAt: number
}

/**
 * Tokens a user supplies for this session only (e.g. a capability token for a data source with
 * `authMode: capability`), keyed by server and name. They live in this object's memory and
 * nowhere else: never written to disk, the keychain or a log, and gone when the process ends.
 */
export class SessionTokens {
  private readonly tokens = new Map<string, Map<string, Token>>()

  constructor(private readonly options: { redactor?: Redactor; now?: () => number } = {}) {}

  set(serverId: string, name: string, value: string): void {
    this.options.redactor?.add(value)
    let server = this.tokens.get(serverId)
    if (!server) {
      server = new Map()
      this.tokens.set(serverId, server)
    }
    server.set(name, { value, setAt: (this.options.now ?? Date.now)() })
  }

  /** The value, for the main process only (the resolver); `undefined` when not set. */
  get(serverId: string, name: string): string | undefined {
    return this.tokens.get(serverId)?.get(name)?.value
  }

  has(serverId: string, name: string): boolean {
    return this.tokens.get(serverId)?.has(name) ?? false
  }

  /** Forgets one token, or all of the server's when `name` is absent; returns the names cleared. */
  clear(serverId: string, name?: string): string[] {
    const server = this.tokens.get(serverId)
    if (!server) return []
    const names = name === undefined ? [...server.keys()] : server.has(name) ? [name] : []
    for (const cleared of names) server.delete(cleared)
    if (server.size === 0) this.tokens.delete(serverId)
    return names
  }

  /** Names and times only, sorted by server then name. */
  list(serverId?: string): SessionTokenInfo[] {
    const out: SessionTokenInfo[] = []
    for (const [server, names] of this.tokens) {
      if (serverId !== undefined && server !== serverId) continue
      for (const [name, token] of names) out.push({ server, name, setAt: token.setAt })
    }
    return out.sort((a, b) => a.server.localeCompare(b.server) || a.name.localeCompare(b.name))
  }

  /** Forgets everything. */
  clearAll(): void {
    this.tokens.clear()
  }
}
