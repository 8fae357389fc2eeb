import { ConsoleError, codeFromWords, type ErrorInfo } from '#shared/errors'
import type { AccessResult } from '#shared/model/rag'
import type { ToolInfo } from '#shared/model/server'
import { countWords } from '#shared/text/sentences'
import type { RawToolResult } from '../pool/types'
import { asToolResult, callParsed, hasTool, serverError } from './calls'
import { HitCollector } from './hits'
import { jsonFromText, throwIfToolError, type Located } from './payload'
import { Fields, Violations, eachRecord, isRecord } from './shape'
import type { DialectAdapter, SearchInput, SearchOutput } from './types'

/**
 * Spec 000 (Mindset AI RAG servers): `rag_search(search_phrases)` and the optional
 * `verify_document_access(segment_uid)`. The user travels in HTTP headers (set by the pool), and
 * the replies are not standard CallToolResults: `{status, segments}` and `{has_access, …}` sit at
 * the top level of the JSON-RPC result.
 */

const SEARCH_TOOL = 'rag_search'
const VERIFY_TOOL = 'verify_document_access'
/** Spec 000: "Maximum 20 segments". */
export const MAX_SEGMENTS = 20
/** Spec 000: a headline is "up to 10 words". */
export const MAX_HEADLINE_WORDS = 10
const MAX_PHRASES = 5

/**
 * The phrases to send: the user's query exactly as typed first (spec 000: phrase 0 is the
 * "exact original input, unmodified"), then the extra phrases that are non-blank and differ from
 * it, at most five in all.
 */
export function searchPhrases(input: Pick<SearchInput, 'query' | 'phrases'>): string[] {
  const phrases = [input.query]
  for (const phrase of input.phrases) {
    if (phrases.length >= MAX_PHRASES) break
    if (phrase.trim() !== '' && !phrases.includes(phrase)) phrases.push(phrase)
  }
  return phrases
}

/**
 * Where the reply's fields are: at the top level as spec 000 says; a server that wraps them in
 * `structuredContent` or a JSON text block is understood too, with an `unexpected_envelope`.
 */
function locate(result: RawToolResult, key: string, out: Violations): Located {
  if (key in result) return { value: result, path: '' }
  const candidates: Located[] = []
  if (isRecord(result.structuredContent)) {
    candidates.push({ value: result.structuredContent, path: 'structuredContent' })
  }
  const fromText = jsonFromText(result, new Violations())
  if (fromText) candidates.push(fromText)
  const found = candidates.find((c) => isRecord(c.value) && key in c.value)
  if (!found) return { value: result, path: '' }
  out.add(
    'unexpected_envelope',
    found.path,
    `\`${key}\` found in ${found.path}; spec 000 puts it at the top level of the result`,
  )
  return found
}

/**
 * A reply whose status is not "success" and that has no segment to show is nothing but an
 * error: the call failed, with the server's own words (`error` or `message`) when it sent some.
 */
function statusFailure(server: string, status: string, reply: Record<string, unknown>): ErrorInfo {
  const said = [reply.error, reply.message].find((v): v is string => typeof v === 'string')
  const code = codeFromWords(`${status} ${said ?? ''}`) ?? 'server_error'
  const advice =
    code === 'unauthorized'
      ? "check the server's key in Config → Secrets and the user's rights"
      : code === 'rate_limited'
        ? 'wait a moment and retry'
        : 'see the server log or try again later'
  return serverError(
    server,
    code,
    `server ${server} answered rag_search with status "${status}"${said ? `: ${said}` : ''}; ${advice}`,
    { status, ...(said === undefined ? {} : { serverMessage: said }) },
  )
}

/**
 * Parses a `rag_search` result into hits; never throws. `failure` is set when the reply is
 * nothing but an error (see {@link statusFailure}).
 */
export function parseRagSearchResult(
  raw: unknown,
  server: string,
): SearchOutput & { failure?: ErrorInfo } {
  const out = new Violations()
  const result = asToolResult(raw, out)
  if (!isRecord(raw)) return { hits: [], violations: out.list, sourceErrors: [], raw }
  const { value, path } = locate(result, 'segments', out)
  const root = new Fields(value as Record<string, unknown>, path, out)
  const status = root.string('status', { required: true })
  if (status !== undefined && status !== 'success') {
    out.add('unknown_status', root.at('status'), 'spec 000 defines only status "success"', status)
  }
  const segments = root.array('segments', { required: true }) ?? []
  if (segments.length > MAX_SEGMENTS) {
    out.add(
      'too_many_segments',
      root.at('segments'),
      `${segments.length} segments; spec 000 allows at most ${MAX_SEGMENTS}`,
      segments.length,
    )
  }
  const hits = new HitCollector(server, out)
  eachRecord(segments, root.at('segments'), out, (segment) => {
    hits.add(segment.obj, segment.path, 'segment_uid', () => {
      const headline = segment.string('headline', { nullable: true })
      if (headline !== undefined && countWords(headline) > MAX_HEADLINE_WORDS) {
        out.add(
          'headline_too_long',
          segment.at('headline'),
          `headline has ${countWords(headline)} words; spec 000 allows up to ${MAX_HEADLINE_WORDS}`,
          headline,
        )
      }
      return {
        id: segment.string('segment_uid', { required: true }),
        fileName: segment.string('source_file_name', { required: true }),
        fileType: segment.string('source_file_type', { required: true }),
        text: segment.string('raw_text', { required: true }),
        title: headline,
        summary: segment.string('segment_summary', { nullable: true }),
        uri: segment.string('source_url', { nullable: true }),
        // Not in spec 000, but kept when a server adds one.
        score: segment.score('score'),
      }
    })
  })
  const output: SearchOutput & { failure?: ErrorInfo } = {
    hits: hits.hits,
    violations: out.list,
    sourceErrors: [],
    raw,
  }
  if (status !== undefined && status !== 'success' && hits.hits.length === 0) {
    output.failure = statusFailure(server, status, value as Record<string, unknown>)
  }
  return output
}

/** Parses a `verify_document_access` result; never throws. */
export function parseAccessResult(raw: unknown, server: string, segmentId: string): AccessResult {
  const out = new Violations()
  const result = asToolResult(raw, out)
  const access: AccessResult = {
    server,
    segmentId,
    hasAccess: null,
    checked: true,
    violations: out.list,
  }
  if (!isRecord(raw)) return access
  const { value, path } = locate(result, 'has_access', out)
  const fields = new Fields(value as Record<string, unknown>, path, out)
  access.hasAccess = fields.boolean('has_access', { required: true }) ?? null
  const refreshedUrl = fields.string('refreshed_url', { nullable: true })
  const accessLevel = fields.string('access_level', { nullable: true })
  const error = fields.string('error', { nullable: true })
  if (refreshedUrl) access.refreshedUrl = refreshedUrl
  if (accessLevel) access.accessLevel = accessLevel
  if (error) access.error = error
  return access
}

export const ragSearchAdapter: DialectAdapter = {
  id: 'rag-search',
  identityHeaders: true,

  detect(tools: ToolInfo[]) {
    const matches = tools.some((tool) => tool.name === SEARCH_TOOL)
    return {
      matches,
      reason: matches
        ? `has ${SEARCH_TOOL}${tools.some((t) => t.name === VERIFY_TOOL) ? ` and ${VERIFY_TOOL}` : ''}`
        : `no ${SEARCH_TOOL} tool`,
    }
  },

  capabilities(tools) {
    return {
      discover: false,
      search: true,
      synthesize: false,
      verify: tools.some((tool) => tool.name === VERIFY_TOOL),
      read: false,
    }
  },

  // The family has no discovery: the server is one source (config `dataSources` may name it).
  async discover() {
    return { resources: [], violations: [], raw: null }
  },

  async search(session, input, options) {
    const server = session.serverId
    const { failure, ...output } = await callParsed(
      session,
      SEARCH_TOOL,
      { search_phrases: searchPhrases(input) },
      options,
      (raw) => parseRagSearchResult(raw, server),
    )
    if (failure) throw new ConsoleError(failure)
    return output
  },

  async verifyAccess(session, segmentId, options) {
    if (!hasTool(session, VERIFY_TOOL)) {
      return {
        server: session.serverId,
        segmentId,
        hasAccess: null,
        checked: false,
        violations: [],
      }
    }
    const raw = await session.callTool(VERIFY_TOOL, { segment_uid: segmentId }, options)
    throwIfToolError(raw, session, VERIFY_TOOL)
    return parseAccessResult(raw, session.serverId, segmentId)
  },
}
