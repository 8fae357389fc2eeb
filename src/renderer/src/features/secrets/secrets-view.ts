import type { SecretRefStatus, ServerSecrets, SessionTokenInfo } from '#shared/ipc/secrets'
import { plural } from '../../lib/format'
import type { SecretTarget } from './secret-target'

/**
 * The Secrets panel worked out from main's list: which servers and references the filters
 * leave, the session tokens no reference names, the counts in the head, and each row's status
 * and target. Names and presence only: values never reach the renderer.
 */

/** A server as the table shows it: its references and the capability tokens given to it. */
export interface ShownServer extends ServerSecrets {
  /** Session tokens no reference names (a source's capability token); they are set, never missing. */
  tokens: SessionTokenInfo[]
}

/** What the filters ask for: a part of the server id, and only references not set. */
export interface SecretsFilter {
  text: string
  onlyMissing: boolean
}

/** A server's session tokens that none of its `${session:…}` references names. */
export function unreferencedTokens(
  server: ServerSecrets,
  tokens: readonly SessionTokenInfo[],
): SessionTokenInfo[] {
  const named = new Set(server.refs.filter((r) => r.kind === 'session').map((r) => r.name))
  return tokens.filter((t) => t.server === server.server && !named.has(t.name))
}

/**
 * The servers whose id holds the filter text (any case), each with the references left by
 * "only not set" (set ones go; unknown ones stay) and its capability tokens (none then).
 */
export function shownServers(
  servers: readonly ServerSecrets[],
  tokens: readonly SessionTokenInfo[],
  { text, onlyMissing }: SecretsFilter,
): ShownServer[] {
  const needle = text.trim().toLowerCase()
  return servers
    .filter((s) => !needle || s.server.toLowerCase().includes(needle))
    .map((s) => ({
      ...(onlyMissing ? { ...s, refs: s.refs.filter((r) => r.present !== true) } : s),
      tokens: onlyMissing ? [] : unreferencedTokens(s, tokens),
    }))
}

/** The panel's head: the servers with rows, the ones without, and what the rows count. */
export interface SecretsSummary {
  /** Servers with a reference or a capability token: a group of rows each. */
  withRefs: ShownServer[]
  /** Ids of the servers with neither. */
  without: string[]
  /** References known not to be set. */
  missing: number
  /** "3 references and 1 capability token". */
  counted: string
}

export function secretsSummary(servers: readonly ShownServer[]): SecretsSummary {
  const hasRows = (s: ShownServer): boolean => s.refs.length > 0 || s.tokens.length > 0
  const withRefs = servers.filter(hasRows)
  const refs = withRefs.flatMap((s) => s.refs)
  const tokenCount = withRefs.reduce((sum, s) => sum + s.tokens.length, 0)
  const counted = [
    refs.length > 0 || tokenCount === 0 ? plural(refs.length, 'reference') : '',
    tokenCount > 0 ? plural(tokenCount, 'capability token') : '',
  ]
    .filter(Boolean)
    .join(' and ')
  return {
    withRefs,
    without: servers.filter((s) => !hasRows(s)).map((s) => s.server),
    missing: missingCount(refs),
    counted,
  }
}

/** References known not to be set (unknown ones are not counted). */
export const missingCount = (refs: readonly SecretRefStatus[]): number =>
  refs.filter((r) => r.present === false).length

/** The element id of a server's group of rows (the panel scrolls to it when asked). */
export const groupId = (server: string): string => `secrets-${encodeURIComponent(server)}`

/** Where each kind of secret is kept, as the "Kept in" column says it. */
export const KIND_LABEL = {
  keychain: 'keychain',
  env: 'environment',
  session: 'this session only',
} as const

/** A reference's status: unknown when the keychain could not be read. */
export function refStatus(ref: SecretRefStatus): 'set' | 'missing' | 'unknown' {
  return ref.present === null ? 'unknown' : ref.present ? 'set' : 'missing'
}

/** The secret a row's Set, Replace, Delete or Clear acts on. */
export function secretTarget(
  server: string,
  ref: Pick<SecretRefStatus, 'name' | 'present'>,
  kind: SecretTarget['kind'],
): SecretTarget {
  return { server, name: ref.name, kind, present: ref.present === true }
}
