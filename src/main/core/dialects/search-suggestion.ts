import type { SearchSuggestion } from '#shared/model/mapping'
import type { ToolInfo } from '#shared/model/server'
import { isRecord } from './shape'

/**
 * Which tools of a server of no known family look like search, so the console can say "looks
 * searchable: `search_docs(query)`; map it". Pure: it reads the tool list only, never calls a
 * tool, and a suggestion is never applied on its own.
 */

/** The hints a listed tool may carry (MCP `ToolAnnotations`); untrusted. */
interface Hints {
  readOnlyHint?: unknown
  destructiveHint?: unknown
}

/** Words of a name or description that say the tool searches (`retrieves`, `queries`). */
const SEARCH_WORD = /^(search|quer(y|ies|ying)$|retriev|find|lookup|semantic|similar|recall)/

/** Words of a name that say the tool changes something: such a tool is never suggested. */
const WRITE_WORDS = new Set([
  'create',
  'update',
  'delete',
  'remove',
  'write',
  'insert',
  'upsert',
  'add',
  'put',
  'post',
  'set',
  'save',
  'store',
  'edit',
  'modify',
  'patch',
  'drop',
  'clear',
  'reset',
  'purge',
  'destroy',
  'erase',
  'upload',
  'ingest',
  'import',
  'send',
  'move',
  'rename',
  'copy',
  'execute',
  'exec',
  'run',
  'kill',
  'append',
  'replace',
  'merge',
  'publish',
  'deploy',
  'install',
  'train',
  'embed',
])
/** A name that starts with this verb writes (`index_documents`), one that ends with it reads. */
const LEADING_WRITE_WORDS = new Set(['index', 'reindex', 'load', 'sync', 'refresh'])
/** Argument names that say they take a query, even when optional (`list_tasks(query?)`). */
const QUERY_NAMES = ['query', 'q', 'querytext', 'searchquery', 'search', 'question', 'keywords']
/** Argument names that take a query, best first; the later ones only when required. */
const QUERY_ARGUMENTS = [...QUERY_NAMES, 'keyword', 'term', 'terms', 'text', 'prompt', 'input']

/** The words of a name or text: `search_nodes`, `lookupArticles`, `find-docs` → search, nodes… */
export function words(text: string): string[] {
  return text
    .slice(0, 2_000)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
}

const normalized = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '')

/** The tool's input schema's properties and required names, whatever the server sent. */
function schemaOf(tool: ToolInfo): { properties: Record<string, unknown>; required: string[] } {
  const schema = isRecord(tool.inputSchema) ? tool.inputSchema : {}
  const properties = isRecord(schema.properties) ? schema.properties : {}
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : []
  return { properties, required }
}

const isString = (schema: unknown): boolean => {
  if (!isRecord(schema)) return false
  const type = schema.type
  return type === 'string' || (Array.isArray(type) && type.includes('string'))
}

/** The hints of a listed tool, if it carries any. */
function hintsOf(tool: ToolInfo): Hints {
  const hints = (tool as { annotations?: unknown }).annotations
  return isRecord(hints) ? hints : {}
}

/** Whether the tool's name or hints say it changes something. */
export function writes(tool: ToolInfo): boolean {
  const hints = hintsOf(tool)
  if (hints.destructiveHint === true) return true
  const name = words(tool.name)
  if (name.some((word) => WRITE_WORDS.has(word))) return true
  return name.length > 1 && LEADING_WRITE_WORDS.has(name[0]!)
}

/**
 * The string argument a tool's query goes into: a required one with a query-like name, else an
 * optional one named `query` (or `q`, `question`, …), else the only required string argument;
 * undefined when there is none.
 */
export function queryArgument(tool: ToolInfo): string | undefined {
  const { properties, required } = schemaOf(tool)
  const strings = Object.keys(properties).filter((name) => isString(properties[name]))
  const needed = strings.filter((name) => required.includes(name))
  const named = (names: string[]): string | undefined => {
    for (const wanted of QUERY_ARGUMENTS) {
      const found = names.find((name) => normalized(name) === wanted)
      if (found) return found
    }
    return undefined
  }
  return (
    named(needed) ??
    named(strings.filter((name) => QUERY_NAMES.includes(normalized(name)))) ??
    (needed.length === 1 ? needed[0] : undefined)
  )
}

/**
 * The tools that look like search, best first: a name or description about search, query,
 * retrieval, find or lookup, and a string argument for the query (required, or named `query`).
 * Tools whose name says they write (create, update, delete, …) or that the server marks
 * destructive are never suggested, whatever else they say.
 */
export function suggestSearchTools(tools: readonly ToolInfo[]): SearchSuggestion[] {
  const found: (SearchSuggestion & { rank: number })[] = []
  tools.forEach((tool, index) => {
    if (typeof tool.name !== 'string' || writes(tool)) return
    const argument = queryArgument(tool)
    if (!argument) return
    const byName = words(tool.name).find((word) => SEARCH_WORD.test(word))
    const byText =
      byName === undefined && typeof tool.description === 'string'
        ? words(tool.description).find((word) => SEARCH_WORD.test(word))
        : undefined
    if (byName === undefined && byText === undefined) return
    const readOnly = hintsOf(tool).readOnlyHint === true
    const reason =
      byName !== undefined ? `its name says ${byName}` : `its description says ${byText as string}`
    // Named for search, then marked read-only, then as listed.
    const rank = (byName !== undefined ? 0 : 2) + (readOnly ? 0 : 1) + index / (tools.length + 1)
    found.push({ tool: tool.name, queryArgument: argument, reason, readOnly, rank })
  })
  return found.sort((a, b) => a.rank - b.rank).map(({ rank: _rank, ...suggestion }) => suggestion)
}
