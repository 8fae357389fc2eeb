import type { GenericSearchMapping } from '#shared/config/schema'
import { ConsoleError, codeFromWords, type ErrorInfo } from '#shared/errors'
import type { Hit, ScoreOrder } from '#shared/model/rag'
import type { CallOptions, ServerSession } from '../pool/types'
import { asToolResult, callParsed, requireUser, serverError, unwrap } from './calls'
import { HitCollector, type HitDraft } from './hits'
import { MAX_ERROR_TEXT, firstText, parseJson, type Located } from './payload'
import { Violations, eachRecord, isRecord, joinPath, jsonType } from './shape'
import type { DialectAdapter, SearchInput, SearchOutput } from './types'

/**
 * The generic adapter: the admin maps one tool of any server to "search" in the config
 * (`dialect: { search: { tool, arguments, hits, fields } }`). Never auto-detected.
 *
 * - `arguments` is a template: a string that is exactly `{query}`, `{topK}` or `{user}` becomes
 *   that value (`{topK}` stays a number); placeholders inside longer strings are interpolated.
 *   Absent: `{ query: "{query}" }`.
 * - The "parsed result" is `structuredContent` when present, else the JSON in the first text
 *   block, else the raw result itself (for servers with top-level keys).
 * - `hits` is a dotted path in it (`results.items`, `data[0].hits`; "" or absent: itself).
 * - `fields` are dotted paths inside one hit; defaults: `id`, `title`, `text`, `snippet`,
 *   `uri`, `score`. A field that holds an array of strings is joined with newlines; a number
 *   read as id/title/text becomes a string.
 * - `scoreOrder` (optional) says which way the score runs (`lower-is-better` for a distance);
 *   when set, the hits are ordered by it, best first.
 * - `error` (optional) is a dotted path to the server's error in the parsed result; a value there
 *   makes the reply a refusal (`unauthorized` / `rate_limited` when its words say so, else
 *   `tool_error`), thrown and recorded in the server's health as a failed call.
 */

const MAX_TEMPLATE_DEPTH = 20
const DEFAULT_FIELDS = {
  id: 'id',
  title: 'title',
  text: 'text',
  snippet: 'snippet',
  uri: 'uri',
  score: 'score',
} as const

export interface TemplateValues {
  query: string
  topK: number
  /** Only needed when the template uses `{user}`. */
  user?: () => string
}

/** Fills an argument template (see the module comment); throws only when `{user}` has no user. */
export function fillTemplate(template: unknown, values: TemplateValues, depth = 0): unknown {
  if (typeof template === 'string') {
    if (template === '{query}') return values.query
    if (template === '{topK}') return values.topK
    return template.replace(/\{(query|topK|user)\}/g, (_, name: string) => {
      if (name === 'query') return values.query
      if (name === 'topK') return String(values.topK)
      return values.user ? values.user() : ''
    })
  }
  if (depth >= MAX_TEMPLATE_DEPTH) return template
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, values, depth + 1))
  if (isRecord(template)) {
    return Object.fromEntries(
      Object.entries(template).map(([key, value]) => [key, fillTemplate(value, values, depth + 1)]),
    )
  }
  return template
}

/** Splits `a.b[0].c` / `a.b.0.c` into keys; "" is the root. */
export function splitPath(path: string): (string | number)[] {
  if (path.trim() === '') return []
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part))
}

/** The value at a dotted path, with the JSON path it was found at; `found: false` when absent. */
export function readPath(
  value: unknown,
  path: string,
  base: string,
): { found: boolean; value: unknown; path: string } {
  let current = value
  let at = base
  for (const key of splitPath(path)) {
    const next =
      typeof key === 'number' && Array.isArray(current)
        ? current[key]
        : isRecord(current)
          ? current[String(key)]
          : undefined
    at = joinPath(at, key)
    if (next === undefined) return { found: false, value: undefined, path: at }
    current = next
  }
  return { found: true, value: current, path: at }
}

/** The parsed result the mapping's paths start from (see the module comment). */
export function mappingRoot(raw: unknown, out: Violations): Located {
  const result = asToolResult(raw, out)
  if (result.structuredContent !== undefined) {
    return { value: result.structuredContent, path: 'structuredContent' }
  }
  const text = firstText(result)
  if (text) {
    const value = parseJson(text.value as string, text.path, out)
    if (value !== undefined) return { value, path: text.path }
  }
  return { value: result, path: '' }
}

/** Reads a mapped text field: strings as is, string arrays joined, numbers as strings. */
function readText(
  item: unknown,
  path: string | undefined,
  base: string,
  out: Violations,
  mapped: boolean,
): string | undefined {
  if (path === undefined) return undefined
  const found = readPath(item, path, base)
  if (!found.found || found.value === null) {
    if (mapped) out.add('missing_field', found.path, `mapped field \`${path}\` is missing`)
    return undefined
  }
  const value = found.value
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('\n')
  out.add('wrong_type', found.path, `expected a string, got ${jsonType(value)}`, value)
  return undefined
}

/** What is at the mapping's `error` path, as a refusal; nothing there (or no path) is none. */
function refusal(
  root: Located,
  server: string,
  mapping: GenericSearchMapping,
): ErrorInfo | undefined {
  if (mapping.error === undefined) return undefined
  const found = readPath(root.value, mapping.error, root.path)
  const value = found.value
  if (!found.found || value === null || value === false || value === '') return undefined
  const said = (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, MAX_ERROR_TEXT)
  return serverError(
    server,
    codeFromWords(said) ?? 'tool_error',
    `server ${server}: tool ${mapping.tool} refused the search (${found.path}): ${said}`,
    { tool: mapping.tool, path: found.path },
  )
}

/**
 * Parses a mapped tool's result into hits; never throws. `failure` is the refusal at the
 * mapping's `error` path, if any.
 */
export function parseGenericResult(
  raw: unknown,
  server: string,
  mapping: GenericSearchMapping,
): SearchOutput & { failure?: ErrorInfo } {
  const out = new Violations()
  const root = mappingRoot(raw, out)
  const failure = refusal(root, server, mapping)
  const list = readPath(root.value, mapping.hits ?? '', root.path)
  const hits = new HitCollector(server, out)
  if (!list.found) {
    out.add('missing_field', list.path || '', `no hit list at \`${mapping.hits ?? ''}\``)
  } else if (!Array.isArray(list.value)) {
    out.add(
      'wrong_type',
      list.path,
      `the hit list should be an array, got ${jsonType(list.value)}`,
      list.value,
    )
  } else {
    const fields = mapping.fields ?? {}
    const pathOf = (name: keyof typeof DEFAULT_FIELDS): string =>
      fields[name] ?? DEFAULT_FIELDS[name]
    const isMapped = (name: string): boolean => typeof fields[name] === 'string'
    eachRecord(list.value, list.path, out, (item) => {
      const text = (name: keyof typeof DEFAULT_FIELDS): string | undefined =>
        readText(item.obj, pathOf(name), item.path, out, isMapped(name))
      hits.add(item.obj, item.path, pathOf('id'), (): HitDraft => {
        const score = readPath(item.obj, pathOf('score'), item.path)
        let scoreValue: number | undefined
        if (score.found && score.value !== null) {
          if (typeof score.value === 'number' && Number.isFinite(score.value))
            scoreValue = score.value
          else
            out.add(
              'score_not_number',
              score.path,
              `score is ${jsonType(score.value)}, not a number`,
              score.value,
            )
        } else if (isMapped('score')) {
          out.add('missing_field', score.path, `mapped field \`${pathOf('score')}\` is missing`)
        }
        return {
          id: text('id'),
          title: text('title'),
          text: text('text'),
          snippet: text('snippet'),
          uri: text('uri'),
          score: scoreValue,
          sourceId: readText(item.obj, fields.sourceId, item.path, out, true),
        }
      })
    })
  }
  const output: SearchOutput & { failure?: ErrorInfo } = {
    hits: mapping.scoreOrder ? byScore(hits.hits, mapping.scoreOrder) : hits.hits,
    violations: out.list,
    sourceErrors: [],
    raw,
  }
  if (failure) output.failure = failure
  return output
}

/**
 * The hits best first by their score, as the mapping says it runs (a stable sort: equal scores
 * keep the server's order; hits without a score go last). Each hit carries the order, so the
 * merged list's score modes read the score the same way.
 */
function byScore(hits: Hit[], order: ScoreOrder): Hit[] {
  const sign = order === 'lower-is-better' ? 1 : -1
  const key = (hit: Hit): number =>
    hit.score === undefined ? Number.POSITIVE_INFINITY : sign * hit.score
  for (const hit of hits) hit.scoreOrder = order
  return [...hits].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
}

/** The generic mapping of a server's config, or a `config` error telling the admin what to add. */
export function genericMapping(session: ServerSession): GenericSearchMapping {
  const setting = session.config.dialect
  if (isRecord(setting) && isRecord(setting.search)) return setting.search
  throw new ConsoleError({
    code: 'config',
    origin: 'local',
    server: session.serverId,
    message: `server ${session.serverId}: dialect "generic" needs a mapping in rag-mcp.json, e.g. "dialect": { "search": { "tool": "search", "arguments": { "query": "{query}" }, "hits": "results" } }`,
  })
}

function templateValues(
  session: ServerSession,
  input: SearchInput,
  options: CallOptions,
): TemplateValues {
  return {
    query: input.query,
    topK: input.topK,
    user: () => requireUser(session.serverId, options, 'this mapping ({user})').userId,
  }
}

export const genericAdapter: DialectAdapter = {
  id: 'generic',

  detect() {
    return { matches: false, reason: 'generic is chosen in the config with a search mapping' }
  },

  capabilities() {
    return { discover: false, search: true, synthesize: false, verify: false, read: false }
  },

  async discover() {
    return { resources: [], violations: [], raw: null }
  },

  async search(session, input, options) {
    const mapping = genericMapping(session)
    const args = fillTemplate(
      mapping.arguments ?? { query: '{query}' },
      templateValues(session, input, options),
    )
    const server = session.serverId
    return unwrap(
      await callParsed(session, mapping.tool, args as Record<string, unknown>, options, (raw) =>
        parseGenericResult(raw, server, mapping),
      ),
    )
  },
}
