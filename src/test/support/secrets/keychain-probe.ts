// Child process of the keychain failure tests (see runKeychainProbe): exercises the store, the
// resolver and the service against a keychain that is really unreachable or really locked, and
// prints one JSON line `{"probe": mode, "results": {...}}`.
import { execFileSync } from 'node:child_process'
import { toErrorInfo } from '#shared/errors'
import { KeychainStore } from '#core/secrets/keychain-store'
import { createRedactor } from '#core/secrets/redactor'
import { SecretsService } from '#core/secrets/secrets-service'
import { SessionTokens } from '#core/secrets/session-tokens'
import { serverConfig } from '../config/server-config'

const mode = process.argv[2]
const results: Record<string, { ok: boolean; value?: unknown; error?: unknown }> = {}

async function step(name: string, fn: () => Promise<unknown> | unknown): Promise<void> {
  try {
    results[name] = { ok: true, value: await fn() }
  } catch (error) {
    results[name] = { ok: false, error: toErrorInfo(error) }
  }
}

function dbusSecrets(path: string, ...args: string[]): string {
  return execFileSync(
    'dbus-send',
    ['--session', '--print-reply', '--dest=org.freedesktop.secrets', path, ...args],
    { encoding: 'utf8', timeout: 10_000 },
  )
}

/** Locks the default collection through org.freedesktop.Secret.Service.Lock. */
function lockDefaultCollection(): boolean {
  const alias = dbusSecrets(
    '/org/freedesktop/secrets',
    'org.freedesktop.Secret.Service.ReadAlias',
    'string:default',
  )
  const collection = /object path "([^"]+)"/.exec(alias)?.[1]
  if (!collection || collection === '/') throw new Error('no default collection')
  dbusSecrets(
    '/org/freedesktop/secrets',
    'org.freedesktop.Secret.Service.Lock',
    `array:objpath:${collection}`,
  )
  const locked = dbusSecrets(
    collection,
    'org.freedesktop.DBus.Properties.Get',
    'string:org.freedesktop.Secret.Collection',
    'string:Locked',
  )
  return /boolean true/.test(locked)
}

const redactor = createRedactor()
const keychain = new KeychainStore({ redactor, timeoutMs: 10_000 })
const needsKey = serverConfig('probe-needs-key', {
  headers: { Authorization: 'Bearer ${keychain:apiKey}' },
})
const noKey = serverConfig('probe-no-key', {
  headers: { 'X-Tenant': 'acme', 'X-Env': '${env:PROBE_TENANT}' },
})
const service = new SecretsService({
  keychain,
  session: new SessionTokens({ redactor }),
  redactor,
  env: { PROBE_TENANT: 'tenant-from-env' },
  servers: () => [needsKey, noKey],
})

if (mode === 'locked') {
  if (process.env.RAG_KEYRING_READY !== '1') throw new Error('the private keyring did not start')
  await step('setBeforeLock', () => keychain.set(needsKey.id, 'apiKey', 'probe-secret-value-1'))
  await step('lock', () => lockDefaultCollection())
}
await step('get', () => keychain.get(needsKey.id, 'apiKey'))
await step('getMissing', () => keychain.get(needsKey.id, 'never-set'))
await step('has', () => keychain.has(needsKey.id, 'apiKey'))
await step('set', () => keychain.set(needsKey.id, 'apiKey', 'probe-secret-value-2'))
await step('delete', () => keychain.delete(needsKey.id, 'apiKey'))
await step('resolveNeedsKey', () => service.resolve(needsKey))
await step('resolveNoKey', () => service.resolve(noKey))
await step('list', () => service.list())

process.stdout.write(`${JSON.stringify({ probe: mode, results })}\n`)
