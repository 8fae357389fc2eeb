import type { ErrorCode, ErrorInfo } from '#shared/errors'
import type { Artifact } from '#shared/model/rag'
import { asToolResult, serverError } from './calls'
import { structuredOrText } from './payload'
import {
  Fields,
  eachRecord,
  isRecord,
  joinPath,
  jsonType,
  type JsonRecord,
  type Violations,
} from './shape'

/**
 * The MCP v2 envelope rag-tools-v1 servers answer with (specs 001/002):
 * `{results, meta_data?, artifacts?}` in `structuredContent`, else as JSON in the text block;
 * error codes in `results.error` (or `meta_data`); artifacts as `{name?, mime, b64}`.
 */

export interface Envelope {
  /**
   * Whether a JSON object was found at all; when not, the reason is already reported and
   * nothing else is (no cascade of "missing" violations).
   */
  found: boolean
  /** Accessors over `results` (over the envelope itself when the server left `results` out). */
  results: Fields
  meta?: JsonRecord
  artifacts: Artifact[]
  errors: ReportedError[]
}

/** An error code a server reported inside its reply. */
export interface ReportedError {
  /** The server's code as sent (`unauthorized_source`, …). */
  code: string
  message?: string
  /** The source it names, if any. */
  sourceId?: string
  path: string
}

/** The six codes of spec 002 and what they mean to the console. */
export const V2_ERROR_CODES: Record<
  string,
  { code: ErrorCode; perSource: boolean; advice: string }
> = {
  unauthorized_user: {
    code: 'unauthorized',
    perSource: false,
    advice: 'the server refuses this user; check the profile or ask its admin for access',
  },
  unauthorized_source: {
    code: 'unauthorized',
    perSource: true,
    advice: 'this user may not search the source; pick another source or profile',
  },
  rate_limited: {
    code: 'rate_limited',
    perSource: false,
    advice: 'the server is rate-limiting; wait a moment and retry',
  },
  invalid_source: {
    code: 'not_found',
    perSource: true,
    advice: 'the server does not know the source; run discovery again',
  },
  backend_unavailable: {
    code: 'server_error',
    perSource: false,
    advice: "the server's backend is unavailable; try again later",
  },
  token_expired: {
    code: 'unauthorized',
    perSource: true,
    advice: 'the token expired; provide a fresh capability token',
  },
}

const SOURCE_KEYS = ['sourceId', 'source', 'resourceId', 'resource'] as const
const MESSAGE_KEYS = ['message', 'detail', 'description'] as const

function firstString(obj: JsonRecord, keys: readonly string[]): string | undefined {
  for (const key of keys) if (typeof obj[key] === 'string') return obj[key]
  return undefined
}

/** The accepted shapes nest at most three levels (a map of arrays of objects); allow slack. */
const MAX_ERROR_DEPTH = 8

/**
 * Reads the error(s) at `path`. Accepted shapes: a code string; `{code | error, message?,
 * source | sourceId | resourceId?}`; an array of those; or a map from source id to either.
 */
function readErrors(
  value: unknown,
  path: string,
  out: Violations,
  into: ReportedError[],
  depth = 0,
): void {
  if (value === undefined || value === null || value === false) return
  if (typeof value === 'string') {
    into.push({ code: value, path })
    return
  }
  if (depth >= MAX_ERROR_DEPTH) {
    // A hostile reply can nest thousands of levels: stop reading rather than overflow the stack.
    out.add('invalid_value', path, `an error nested more than ${MAX_ERROR_DEPTH} levels deep`)
    return
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => readErrors(item, joinPath(path, i), out, into, depth + 1))
    return
  }
  if (isRecord(value)) {
    const code = firstString(value, ['code', 'error'])
    if (code !== undefined) {
      const error: ReportedError = { code, path }
      const message = firstString(value, MESSAGE_KEYS)
      const sourceId = firstString(value, SOURCE_KEYS)
      if (message !== undefined) error.message = message
      if (sourceId !== undefined) error.sourceId = sourceId
      into.push(error)
      return
    }
    for (const [sourceId, item] of Object.entries(value)) {
      const before = into.length
      readErrors(item, joinPath(path, sourceId), out, into, depth + 1)
      for (const error of into.slice(before)) error.sourceId ??= sourceId
    }
    return
  }
  out.add(
    'wrong_type',
    path,
    `an error should be a code or an object, got ${jsonType(value)}`,
    value,
  )
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/

function readArtifacts(envelope: Fields): Artifact[] {
  const items = envelope.array('artifacts')
  const artifacts: Artifact[] = []
  if (!items) return artifacts
  eachRecord(items, envelope.at('artifacts'), envelope.out, (item) => {
    const mime = item.string('mime', { required: true })
    const b64 = item.string('b64', { required: true })
    const name = item.string('name')
    if (mime === undefined || b64 === undefined) return
    const compact = b64.replace(/\s+/g, '')
    if (!BASE64.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
      item.out.add('invalid_base64', item.at('b64'), 'artifact body is not base64', b64)
      return
    }
    artifacts.push(name === undefined ? { mime, b64: compact } : { name, mime, b64: compact })
  })
  return artifacts
}

/** Reads the v2 envelope of a raw tool result; never throws. */
export function readEnvelope(raw: unknown, out: Violations): Envelope {
  const located = structuredOrText(asToolResult(raw, out), out)
  let root: JsonRecord = {}
  let path = ''
  if (located && isRecord(located.value)) {
    root = located.value
    path = located.path
  } else if (located) {
    out.add(
      'unexpected_envelope',
      located.path,
      `the reply should be an object {results, meta_data, artifacts}, got ${jsonType(located.value)}`,
      located.value,
    )
  }
  const envelope = new Fields(root, path, out)
  let results: Fields
  if (isRecord(root.results)) {
    results = new Fields(root.results, envelope.at('results'), out)
  } else {
    if (located && isRecord(located.value)) {
      out.add(
        'unexpected_envelope',
        envelope.at('results'),
        root.results === undefined
          ? 'the reply has no `results` object (v2 envelope: {results, meta_data, artifacts})'
          : `\`results\` should be an object, got ${jsonType(root.results)}`,
        root.results,
      )
    }
    // Read what is there anyway: a server that put `hits` at the top level still has hits.
    results = envelope
  }
  const meta = envelope.record('meta_data', { nullable: true })
  const errors: ReportedError[] = []
  readErrors(results.obj.error, results.at('error'), out, errors)
  readErrors(results.obj.errors, results.at('errors'), out, errors)
  if (meta) {
    readErrors(meta.error, joinPath(envelope.at('meta_data'), 'error'), out, errors)
    readErrors(meta.errors, joinPath(envelope.at('meta_data'), 'errors'), out, errors)
  }
  const found = located !== undefined && isRecord(located.value)
  const envelopeResult: Envelope = { found, results, artifacts: readArtifacts(envelope), errors }
  if (meta) envelopeResult.meta = meta
  return envelopeResult
}

/** The console's view of one reported error, with an actionable message. */
export function reportedErrorInfo(
  server: string,
  error: ReportedError,
  sourceId: string | undefined,
): ErrorInfo {
  const known = V2_ERROR_CODES[error.code]
  const about = sourceId && sourceId !== '*' ? ` (source ${sourceId})` : ''
  const said = error.message ? `: ${error.message}` : ''
  const advice = known?.advice ?? 'see the server log'
  const details: Record<string, unknown> = { serverCode: error.code, path: error.path }
  if (error.message !== undefined) details.serverMessage = error.message
  return serverError(
    server,
    known?.code ?? 'server_error',
    `server ${server} reported ${error.code}${about}${said}; ${advice}`,
    details,
  )
}

/**
 * Splits the reported errors into per-source errors and, when the reply has nothing else to
 * show, a failure for the whole call. A per-source code (`unauthorized_source`, `invalid_source`,
 * `token_expired`) without a named source is pinned on the only requested source when there is
 * one; a server-wide code (`unauthorized_user`, `rate_limited`, `backend_unavailable`, unknown)
 * without a source fails the call when nothing came back, else is listed under source `*`.
 */
export function classifyErrors(
  server: string,
  errors: ReportedError[],
  requested: string[],
  hasData: boolean,
): { sourceErrors: { sourceId: string; error: ErrorInfo }[]; failure?: ErrorInfo } {
  const sourceErrors: { sourceId: string; error: ErrorInfo }[] = []
  let failure: ErrorInfo | undefined
  for (const error of errors) {
    const perSource = V2_ERROR_CODES[error.code]?.perSource ?? false
    const sourceId =
      error.sourceId ?? (perSource && requested.length === 1 ? requested[0] : undefined)
    if (sourceId === undefined && !hasData) {
      failure ??= reportedErrorInfo(server, error, undefined)
      continue
    }
    sourceErrors.push({
      sourceId: sourceId ?? '*',
      error: reportedErrorInfo(server, error, sourceId),
    })
  }
  return failure ? { sourceErrors, failure } : { sourceErrors }
}
