import type { RegistryDocument } from './document'
import { DEFAULT_TIMEOUT_MS, type ServerConfig, type ServerEntry } from './schema'

/**
 * `transport`, else `type` (Claude / Cursor / VS Code), else inferred: `command` → stdio, a URL
 * path ending in `/sse` → sse, anything else → http.
 */
export function inferTransport(entry: ServerEntry): ServerConfig['transport'] {
  if (entry.transport) return entry.transport
  if (entry.type) return entry.type === 'streamable-http' ? 'http' : entry.type
  if (entry.command) return 'stdio'
  return entry.url && isSsePath(entry.url) ? 'sse' : 'http'
}

function isSsePath(url: string): boolean {
  const path = url.split(/[?#]/)[0]!.replace(/\/+$/, '')
  return path.endsWith('/sse')
}

/** VS Code's `${input:ID}` is read from the keychain entry of the same name. */
const INPUT_REFERENCE = /\$\{input:([^}]*)\}/g
const inputsToKeychain = (value: string): string =>
  value.replace(INPUT_REFERENCE, (_match, name: string) => `\${keychain:${name}}`)

function mapValues(
  map: Record<string, string> | undefined,
  convert: (value: string) => string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, convert(v)]))
}

/** What normalisation needs to know about where an entry was written. */
export interface NormalizeContext {
  /** The file the entry is reported as coming from. */
  origin: string
  /** The document a field came from (VS Code files may use `${input:ID}`). */
  inputDocs: (field: string) => RegistryDocument
}

/** One validated entry with every default applied: what the pool connects with. */
export function normalizeEntry(
  id: string,
  entry: ServerEntry,
  context: NormalizeContext,
): ServerConfig {
  const converter = (field: string) =>
    context.inputDocs(field).form === 'servers' ? inputsToKeychain : (value: string) => value
  const transport = inferTransport(entry)
  const config: ServerConfig = {
    id,
    transport,
    args: [...(entry.args ?? [])],
    env: mapValues(entry.env, converter('env')),
    headers: mapValues(entry.headers, converter('headers')),
    groups: [...(entry.groups ?? [])],
    isExclusive: entry.is_exclusive ?? false,
    enabled: entry.enabled ?? true,
    dialect: entry.dialect ?? 'auto',
    timeoutMs: entry.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ui: pick(entry.ui ?? {}, ['icon', 'order', 'defaultSelected']),
    dataSources: (entry.dataSources ?? []).map((source) => ({ ...source })),
    origin: context.origin,
  }
  if (entry.url !== undefined) config.url = converter('url')(entry.url)
  if (entry.command !== undefined) config.command = entry.command
  if (entry.cwd !== undefined) config.cwd = entry.cwd
  if (entry.description !== undefined) config.description = entry.description
  if (entry.canaries?.length) config.canaries = entry.canaries.map((canary) => ({ ...canary }))
  if (entry.launch) {
    config.launch = { ...entry.launch }
    if (entry.launch.env) config.launch.env = mapValues(entry.launch.env, converter('launch'))
  }
  if (entry.oauth) config.oauth = { ...entry.oauth }
  if (entry.identityHeaders !== undefined) config.identityHeaders = entry.identityHeaders
  return config
}

function pick<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>
  for (const key of keys) if (object[key] !== undefined) out[key] = object[key]
  return out
}
