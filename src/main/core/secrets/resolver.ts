import type { ServerConfig } from '#shared/config/schema'
import { ConsoleError } from '#shared/errors'
import type { KeychainStore } from './keychain-store'
import { configRefs, refKey, substituteRefs } from './refs'
import type { SessionTokens } from './session-tokens'
import type { Redactor, ResolvedConnection, SecretRef, SecretResolver } from './types'

export interface SecretResolverDeps {
  keychain: Pick<KeychainStore, 'get'>
  session: Pick<SessionTokens, 'get'>
  /** Where `${env:VAR}` reads from (the core's environment, not necessarily `process.env`). */
  env: Record<string, string | undefined>
  redactor: Redactor
}

/**
 * Resolves a server's `${keychain:NAME}`, `${env:VAR}` and `${session:NAME}` references in
 * `url`, `headers`, `env` and (stdio) `args`. A reference without a value is returned in `missing` and left as
 * written (the pool must not connect while `missing` is non-empty). The keychain is only asked
 * when the config references it, so a keychain that is unavailable fails only servers that need
 * it. Every resolved value is registered with the redactor.
 */
export function createSecretResolver(deps: SecretResolverDeps): SecretResolver {
  const lookupOne = async (serverId: string, ref: SecretRef): Promise<string | undefined> => {
    switch (ref.kind) {
      case 'keychain':
        return (await deps.keychain.get(serverId, ref.name)) ?? undefined
      case 'session':
        return deps.session.get(serverId, ref.name)
      case 'env':
        return deps.env[ref.name]
    }
  }

  return {
    async resolve(config: ServerConfig): Promise<ResolvedConnection> {
      const values = new Map<string, string>()
      const missing: SecretRef[] = []
      // One at a time: a locked keychain shows one unlock prompt, not one per reference.
      for (const { ref } of configRefs(config)) {
        let value: string | undefined
        try {
          value = await lookupOne(config.id, ref)
        } catch (error) {
          const cause = ConsoleError.from(error, 'keychain_unavailable')
          throw new ConsoleError(
            {
              ...cause.toInfo(),
              server: config.id,
              message: `server ${config.id}: ${cause.message}`,
            },
            { cause: error },
          )
        }
        if (value === undefined || value === '') {
          missing.push(ref)
        } else {
          deps.redactor.add(value)
          values.set(refKey(ref), value)
        }
      }
      const fill = (text: string): string => substituteRefs(text, (ref) => values.get(refKey(ref)))
      const resolved: ResolvedConnection = {
        headers: mapValues(config.headers, fill),
        env: mapValues(config.env, fill),
        missing,
      }
      if (config.url !== undefined) resolved.url = fill(config.url)
      if (config.transport === 'stdio') resolved.args = config.args.map(fill)
      return resolved
    },
  }
}

function mapValues(
  record: Record<string, string> | undefined,
  fn: (value: string) => string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(record ?? {}).map(([key, value]) => [key, fn(value)]))
}
