import type { ServerConfig } from '#shared/config/schema'

/** Where a `${kind:NAME}` reference in rag-mcp.json is resolved from. */
export type SecretRefKind = 'keychain' | 'env' | 'session'

export interface SecretRef {
  kind: SecretRefKind
  name: string
}

/** A server's connection settings with every secret reference resolved, for the pool only. */
export interface ResolvedConnection {
  url?: string
  headers: Record<string, string>
  env: Record<string, string>
  /** A stdio server's arguments. */
  args?: string[]
  /** References that could not be resolved; non-empty puts the server in `action_required`. */
  missing: SecretRef[]
}

/**
 * Resolves `${keychain:NAME}` (OS keychain, account `<serverId>/<NAME>`), `${env:VAR}` and
 * `${session:NAME}` (memory-only tokens for this session) at connect time. Resolved values are
 * registered with the redactor so they can never leave the main process.
 */
export interface SecretResolver {
  resolve(config: ServerConfig): Promise<ResolvedConnection>
}

/** Replaces every known secret value with a marker, in text or any JSON-like value. */
export interface Redactor {
  /** Remembers a secret value so it is redacted from now on. */
  add(value: string): void
  redact<T>(value: T): T
  /** {@link redact}, and the signatures and tokens of signed links: for what is kept on disk. */
  redactLinks<T>(value: T): T
  /** {@link redact} for a value whose JSON text is `json`; may skip the walk when it is clean. */
  redactJson?<T>(value: T, json: string): T
}
