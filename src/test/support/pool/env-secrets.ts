// Test helper: a real SecretResolver over `${env:VAR}` references only, reading from a map the
// test controls (so a test can "set the secret" and reconnect). The console's own resolver,
// with the keychain, lives in src/main/core/secrets.
import type { ServerConfig } from '#shared/config/schema'
import type { ResolvedConnection, SecretRef, SecretResolver } from '#core/secrets/types'

const REF = /\$\{(keychain|env|session):([^}]+)\}/g

export class EnvSecretResolver implements SecretResolver {
  constructor(readonly env: Record<string, string | undefined> = {}) {}

  async resolve(config: ServerConfig): Promise<ResolvedConnection> {
    const missing: SecretRef[] = []
    const substitute = (text: string): string =>
      text.replace(REF, (whole, kind: SecretRef['kind'], name: string) => {
        const value = kind === 'env' ? this.env[name] : undefined
        if (value === undefined) {
          missing.push({ kind, name })
          return whole
        }
        return value
      })
    const map = (record: Record<string, string>): Record<string, string> =>
      Object.fromEntries(Object.entries(record).map(([k, v]) => [k, substitute(v)]))
    const resolved: ResolvedConnection = {
      headers: map(config.headers),
      env: map(config.env),
      missing,
    }
    if (config.url) resolved.url = substitute(config.url)
    return resolved
  }
}
