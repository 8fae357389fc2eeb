import type { ServerConfig } from '#shared/config/schema'
import { SECRET_NAME_RE } from '#shared/ipc/secrets'
import type { SecretRef, SecretRefKind } from './types'

/** `${keychain:NAME}`, `${env:VAR}` or `${session:NAME}`; anything else is left as written. */
const REF_RE = /\$\{(keychain|env|session):([A-Za-z0-9_.-]{1,128})\}/g

/** The fields of a server entry that may hold references. */
export type RefSource = Pick<ServerConfig, 'url' | 'headers' | 'env' | 'oauth'> & {
  args?: ServerConfig['args']
}

/** One reference and every place of the entry it appears in (`url`, `headers.X`, `env.Y`). */
export interface RefUse {
  ref: SecretRef
  where: string[]
}

/** Every reference in a text, in order, duplicates kept. */
export function parseRefs(text: string): SecretRef[] {
  return [...text.matchAll(REF_RE)].map((m) => ({ kind: m[1] as SecretRefKind, name: m[2]! }))
}

/** Replaces each reference for which `lookup` has a value; the others stay as written. */
export function substituteRefs(
  text: string,
  lookup: (ref: SecretRef) => string | undefined,
): string {
  return text.replace(REF_RE, (whole, kind: SecretRefKind, name: string) => {
    return lookup({ kind, name }) ?? whole
  })
}

/** Whether a text is only references and blanks, i.e. holds no secret itself. */
export function isOnlyRefs(text: string): boolean {
  return text.replace(REF_RE, '').trim() === ''
}

/**
 * The references of a server entry's `url`, `headers`, `env`, `args` and OAuth client secret,
 * one per kind and name.
 */
export function configRefs(config: RefSource): RefUse[] {
  const uses = new Map<string, RefUse>()
  const visit = (text: string | undefined, where: string): void => {
    if (!text) return
    for (const ref of parseRefs(text)) {
      const key = refKey(ref)
      const use = uses.get(key) ?? { ref, where: [] }
      if (!use.where.includes(where)) use.where.push(where)
      uses.set(key, use)
    }
  }
  visit(config.url, 'url')
  for (const [name, value] of Object.entries(config.headers ?? {})) visit(value, `headers.${name}`)
  for (const [name, value] of Object.entries(config.env ?? {})) visit(value, `env.${name}`)
  for (const [index, value] of (config.args ?? []).entries()) visit(value, `args[${index}]`)
  visit(config.oauth?.clientSecret, 'oauth.clientSecret')
  return [...uses.values()]
}

/** The text form of a reference, as written in rag-mcp.json. */
export function formatRef(ref: SecretRef): string {
  return `\${${ref.kind}:${ref.name}}`
}

export function refKey(ref: SecretRef): string {
  return `${ref.kind}:${ref.name}`
}

/** Whether `name` can be written inside a reference. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME_RE.test(name)
}
