import { z } from 'zod'
import type { ErrorInfo } from '../errors'

/**
 * Secrets: keychain entries and session-only tokens per server. Values go in (set) and never
 * come back out: no result or event of this feature carries a secret value.
 */

/** What may stand in `${keychain:NAME}` / `${session:NAME}` / `${env:NAME}`. */
export const SECRET_NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/

/** Longest value accepted; real API keys and tokens are far shorter. */
export const MAX_SECRET_LENGTH = 16_384

const serverIdSchema = z
  .string()
  .min(1, 'server id is empty')
  .max(200, 'server id is longer than 200 characters')
  .refine((id) => !/[\p{Cc}]/u.test(id), 'server id contains control characters')

const secretNameSchema = z
  .string()
  .regex(SECRET_NAME_RE, 'name must be 1-128 letters, digits, "_", "." or "-"')

/**
 * Why a secret value cannot be stored, or `undefined` when it can. The messages never quote the
 * value: a validation error must not echo a secret back.
 */
export function secretValueProblem(value: string): string | undefined {
  if (value.trim() === '') return 'the value is empty'
  if (value.length > MAX_SECRET_LENGTH) {
    return `the value is longer than ${MAX_SECRET_LENGTH} characters`
  }
  if (/[\r\n\0]/.test(value)) {
    return 'the value must be one line without NUL characters (paste the key without line breaks)'
  }
  return undefined
}

const secretValueSchema = z.string().superRefine((value, ctx) => {
  const problem = secretValueProblem(value)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

const serverFilterSchema = z.object({ server: serverIdSchema.optional() }).optional()

export const secretsRequests = {
  /** Every secret reference of one server (or of all servers), each present or absent. */
  'secrets:list': serverFilterSchema,
  /** Stores a value in the OS keychain; the server's connection is rebuilt with it. */
  'secrets:set': z.object({
    server: serverIdSchema,
    name: secretNameSchema,
    value: secretValueSchema,
  }),
  'secrets:delete': z.object({ server: serverIdSchema, name: secretNameSchema }),
  /** Keeps a token in memory for this session only (never written anywhere). */
  'secrets:session-set': z.object({
    server: serverIdSchema,
    name: secretNameSchema,
    value: secretValueSchema,
  }),
  /** Forgets one session token, or every session token of the server when `name` is absent. */
  'secrets:session-clear': z.object({ server: serverIdSchema, name: secretNameSchema.optional() }),
  'secrets:session-list': serverFilterSchema,
}

export type SecretKind = 'keychain' | 'env' | 'session'

/** One `${kind:NAME}` reference of a server's config. */
export interface SecretRefStatus {
  kind: SecretKind
  name: string
  /** `null` when it could not be checked (keychain unavailable or locked). */
  present: boolean | null
  /** Where the config uses it: `url`, `headers.Authorization`, `env.KB_TOKEN`. */
  where: string[]
}

export interface ServerSecrets {
  server: string
  refs: SecretRefStatus[]
}

export interface SecretsList {
  servers: ServerSecrets[]
  /** Whether the keychain could be read; when not, what to do about it. */
  keychain: { available: true } | { available: false; error: ErrorInfo }
}

export interface SessionTokenInfo {
  server: string
  name: string
  /** Epoch ms. */
  setAt: number
}

export interface SecretsResults {
  'secrets:list': SecretsList
  'secrets:set': { server: string; name: string; present: true }
  'secrets:delete': { server: string; name: string; deleted: boolean }
  'secrets:session-set': { server: string; name: string }
  'secrets:session-clear': { server: string; cleared: string[] }
  'secrets:session-list': { tokens: SessionTokenInfo[] }
}

/** A keychain entry or session token was set or removed; never carries the value. */
export interface SecretChange {
  server: string
  name: string
  kind: 'keychain' | 'session'
  present: boolean
}

export interface SecretsEvents {
  'secrets:changed': SecretChange
}
