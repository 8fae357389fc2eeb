import { authModeSchema } from '#shared/config/schema'
import { ConsoleError, type ErrorInfo } from '#shared/errors'
import type { Answer, AuthMode, Citation, Resource } from '#shared/model/rag'
import type { ToolInfo } from '#shared/model/server'
import type { ActingUser } from '#shared/model/user'
import type { CallOptions, ServerSession } from '../pool/types'
import { callParsed, hasTool, requireUser, searchPerSource, unwrap, type SourceCall } from './calls'
import { HitCollector } from './hits'
import { Fields, Violations, eachRecord, isRecord, type JsonRecord } from './shape'
import type { DialectAdapter, DiscoverOutput, SearchInput, SearchOutput } from './types'
import { classifyErrors, readEnvelope } from './v2-envelope'

/**
 * Specs 001/002 ("RAG over MCP", contract rag-tools-v1): `rag_discover_resources`,
 * `rag_get_raw_results`, optional `rag_get_synthesized_results`, every one taking the acting
 * user as `username`, every reply a v2 envelope (see `v2-envelope.ts`).
 */

const DISCOVER = 'rag_discover_resources'
const RAW = 'rag_get_raw_results'
const SYNTH = 'rag_get_synthesized_results'
/** Spec 002: sensitive per-call parameter a server may declare for capability tokens. */
const TOKEN_PARAM = 'capability_token'
const AUTH_MODES: readonly AuthMode[] = authModeSchema.options

/** A copy of an object without a `username` key (nested inputs must not carry another user). */
function withoutUsername(value: Record<string, unknown>): Record<string, unknown> {
  const { username: _ignored, ...rest } = value
  return rest
}

/**
 * The arguments of any rag-tools-v1 call: `username` is the acting user's id, set last, and
 * removed from nested `filters` / `ranking` / `synthesis_params`, so no other input can name a
 * different user.
 */
export function withUsername(
  args: Record<string, unknown>,
  user: ActingUser,
): Record<string, unknown> {
  const safe: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(args)) {
    if (key === 'username') continue
    safe[key] = isRecord(value) ? withoutUsername(value) : value
  }
  safe.username = user.userId
  return safe
}

/** Parses a `rag_discover_resources` reply; never throws. */
export function parseDiscoverResult(
  raw: unknown,
  server: string,
): DiscoverOutput & { failure?: ErrorInfo } {
  const out = new Violations()
  const envelope = readEnvelope(raw, out)
  const items = envelope.results.array('resources', { required: envelope.found }) ?? []
  const resources: Resource[] = []
  eachRecord(items, envelope.results.at('resources'), out, (item) => {
    const id = item.string('id', { required: true })
    if (id === undefined) return
    const name = item.string('name', { required: true })
    const authRequired = item.boolean('authRequired', { required: true })
    const resource: Resource = {
      server,
      id,
      name: name ?? id,
      // Unknown is treated as "needs auth": the console must not promise open access.
      authRequired: authRequired ?? true,
      groups: item.strings('groups', { required: true }) ?? [],
      scopes: item.strings('scopes') ?? [],
      defaultSelected: item.boolean('defaultSelected') ?? false,
    }
    const description = item.string('description')
    const sourceType = item.string('sourceType')
    const authMode = item.oneOf('authMode', AUTH_MODES)
    const lastIndexed = item.string('lastIndexed')
    const counts = item.record('counts')
    if (description !== undefined) resource.description = description
    if (sourceType !== undefined) resource.sourceType = sourceType
    if (authMode !== undefined) resource.authMode = authMode
    if (lastIndexed !== undefined) resource.lastIndexed = lastIndexed
    if (counts) {
      const c = new Fields(counts, item.at('counts'), out)
      resource.counts = {}
      const docs = c.number('docs')
      const chunks = c.number('chunks')
      if (docs !== undefined) resource.counts.docs = docs
      if (chunks !== undefined) resource.counts.chunks = chunks
    }
    resources.push(resource)
  })
  const { sourceErrors, failure } = classifyErrors(
    server,
    envelope.errors,
    [],
    resources.length > 0,
  )
  for (const { sourceId, error } of sourceErrors) {
    const resource = resources.find((r) => r.id === sourceId)
    if (resource) resource.error = error
  }
  const output: DiscoverOutput & { failure?: ErrorInfo } = { resources, violations: out.list, raw }
  if (failure) output.failure = failure
  return output
}

/**
 * Parses a `rag_get_raw_results` reply; never throws. `requested` are the sources the call asked
 * for: errors are attributed to them, and a hit from any other source is reported.
 */
export function parseRawResults(
  raw: unknown,
  server: string,
  requested: string[],
): SearchOutput & { failure?: ErrorInfo } {
  const out = new Violations()
  const envelope = readEnvelope(raw, out)
  const expectData = envelope.found && envelope.errors.length === 0
  const items = envelope.results.array('hits', { required: expectData }) ?? []
  const hits = new HitCollector(server, out)
  eachRecord(items, envelope.results.at('hits'), out, (item) => {
    hits.add(item.obj, item.path, 'id', () => {
      const resourceId = item.string('resourceId')
      if (resourceId === undefined && !item.has('resourceId')) {
        out.add('missing_resource_id', item.at('resourceId'), 'hit has no resourceId')
      } else if (
        resourceId !== undefined &&
        requested.length > 0 &&
        !requested.includes(resourceId)
      ) {
        out.add(
          'invalid_value',
          item.at('resourceId'),
          `hit from source ${resourceId}, which was not requested`,
          resourceId,
        )
      }
      const provenance = item.record('provenance')
      return {
        id: item.string('id'),
        score: item.score('score', { required: true }),
        snippet: item.string('snippet'),
        text: item.string('chunk'),
        title: item.string('title'),
        uri: item.string('uri'),
        sourceId: resourceId,
        timestamp: item.string('timestamp'),
        provenance,
      }
    })
  })
  const { sourceErrors, failure } = classifyErrors(
    server,
    envelope.errors,
    requested,
    hits.hits.length > 0,
  )
  const output: SearchOutput & { failure?: ErrorInfo } = {
    hits: hits.hits,
    violations: out.list,
    sourceErrors,
    raw,
  }
  if (envelope.artifacts.length > 0) output.artifacts = envelope.artifacts
  if (failure) output.failure = failure
  return output
}

/** Parses a `rag_get_synthesized_results` reply; never throws. */
export function parseSynthesisResult(
  raw: unknown,
  server: string,
): Answer & { failure?: ErrorInfo } {
  const out = new Violations()
  const envelope = readEnvelope(raw, out)
  const results = envelope.results
  const answer: Answer & { failure?: ErrorInfo } = {
    server,
    mode: 'server',
    text:
      results.string('answer', { required: envelope.found && envelope.errors.length === 0 }) ?? '',
    citations: [],
    violations: out.list,
    raw,
  }
  const items = results.array('citations') ?? []
  eachRecord(items, results.at('citations'), out, (item) => {
    const resourceId = item.string('resourceId')
    if (resourceId === undefined && !item.has('resourceId')) {
      out.add('missing_resource_id', item.at('resourceId'), 'citation has no resourceId')
    }
    const citation: Citation = { n: answer.citations.length + 1, server }
    const uri = item.string('uri')
    const title = item.string('title')
    const snippet = item.string('snippet')
    if (resourceId !== undefined) citation.sourceId = resourceId
    if (uri !== undefined) citation.uri = uri
    if (title !== undefined) citation.title = title
    if (snippet !== undefined) citation.snippet = snippet
    answer.citations.push(citation)
  })
  const limits = results.record('limits')
  if (limits) {
    answer.limits = {}
    if (typeof limits.truncated === 'boolean') answer.limits.truncated = limits.truncated
    if (typeof limits.reason === 'string') answer.limits.reason = limits.reason
  }
  if (envelope.artifacts.length > 0) answer.artifacts = envelope.artifacts
  const { failure } = classifyErrors(server, envelope.errors, [], answer.text !== '')
  if (failure) answer.failure = failure
  return answer
}

function declares(session: ServerSession, tool: string, param: string): boolean {
  const schema = session.tools.find((t) => t.name === tool)?.inputSchema
  return isRecord(schema) && isRecord(schema.properties) && param in schema.properties
}

/**
 * One call with the acting user as `username`; a reply that is nothing but an error (for the
 * whole call) is thrown, and is recorded in the server's health as a failed call.
 */
async function call<T extends { failure?: ErrorInfo }>(
  session: ServerSession,
  tool: string,
  args: Record<string, unknown>,
  user: ActingUser,
  options: CallOptions,
  parse: (raw: unknown, server: string) => T,
): Promise<Omit<T, 'failure'>> {
  const server = session.serverId
  return unwrap(
    await callParsed(session, tool, withUsername(args, user), options, (raw) => parse(raw, server)),
  )
}

function searchArgs(input: SearchInput, sources: string[]): JsonRecord {
  const args: JsonRecord = { query: input.query, top_k: input.topK }
  if (sources.length > 0) args.sources = sources
  if (input.filters && Object.keys(input.filters).length > 0) args.filters = input.filters
  return args
}

export const ragToolsV1Adapter: DialectAdapter = {
  id: 'rag-tools-v1',

  detect(tools: ToolInfo[]) {
    const names = new Set(tools.map((tool) => tool.name))
    if (!names.has(RAW)) return { matches: false, reason: `no ${RAW} tool` }
    const also = [DISCOVER, SYNTH].filter((name) => names.has(name))
    return { matches: true, reason: `has ${[RAW, ...also].join(', ')}` }
  },

  capabilities(tools) {
    const names = new Set(tools.map((tool) => tool.name))
    return {
      discover: names.has(DISCOVER),
      search: names.has(RAW),
      synthesize: names.has(SYNTH),
      verify: false,
      read: false,
    }
  },

  async discover(session, options) {
    const user = requireUser(session.serverId, options, 'rag-tools-v1')
    if (!hasTool(session, DISCOVER)) return { resources: [], violations: [], raw: null }
    return call(session, DISCOVER, {}, user, options, parseDiscoverResult)
  },

  /**
   * One call for the sources without a capability token, plus one per source that has a token
   * (when the tool declares `capability_token`), run in parallel and merged.
   */
  async search(session, input, options) {
    const user = requireUser(session.serverId, options, 'rag-tools-v1')
    const tokens = declares(session, RAW, TOKEN_PARAM) ? (input.capabilityTokens ?? {}) : {}
    const tokened = input.sources.filter((source) => tokens[source])
    const plain = input.sources.filter((source) => !tokens[source])
    const run = (sources: string[], token?: string) => async (): Promise<SearchOutput> => {
      const args = searchArgs(input, sources)
      if (token !== undefined) args[TOKEN_PARAM] = token
      return call(session, RAW, args, user, options, (raw, server) =>
        parseRawResults(raw, server, sources),
      )
    }
    const calls: SourceCall<SearchOutput>[] = []
    if (plain.length > 0 || tokened.length === 0) calls.push({ sources: plain, run: run(plain) })
    for (const source of tokened)
      calls.push({ sources: [source], run: run([source], tokens[source]) })
    return searchPerSource(calls)
  },

  async synthesize(session, input, options) {
    const user = requireUser(session.serverId, options, 'rag-tools-v1')
    if (!hasTool(session, SYNTH)) {
      throw new ConsoleError({
        code: 'unsupported',
        origin: 'local',
        server: session.serverId,
        message: `server ${session.serverId} has no ${SYNTH} tool; use the console's own (client) synthesis`,
      })
    }
    const args: JsonRecord = { query: input.query, top_k: input.topK }
    if (input.sources.length > 0) args.sources = input.sources
    return call(session, SYNTH, args, user, options, parseSynthesisResult)
  },
}
