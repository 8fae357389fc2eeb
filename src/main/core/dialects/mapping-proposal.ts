import type { GenericSearchMapping } from '#shared/config/schema'
import {
  FIELD_ROLES,
  type FieldKind,
  type FieldOption,
  type FieldRole,
  type ListCandidate,
  type MappingChoice,
  type MappingPreview,
  type MappingProposal,
  type ProposalCall,
} from '#shared/model/mapping'
import type { ScoreOrder } from '#shared/model/rag'
import { mappingRoot, parseGenericResult } from './generic'
import { isRecord, Violations } from './shape'

/**
 * A generic search mapping proposed from one real reply of a tool: where the hit list is, which
 * field of a hit is its id, title, text, snippet, link and score (guessed from the names servers
 * use), which way the score runs, and the argument template from the call that produced the
 * reply. The Workbench's "Use as search" and `rag-console map` both build on it. Every walk is
 * bounded, so a huge, deep or hostile reply ends in a proposal (perhaps with a `problem`), never
 * in a hang or a throw.
 */

export const MAX_CANDIDATES = 20
export const MAX_FIELDS = 100
export const PREVIEW_HITS = 20
/** Nodes of the reply visited while looking for lists. */
const MAX_NODES = 20_000
const MAX_DEPTH = 12
/** Items of a list looked at for its fields and its hit-likeness. */
const SAMPLE_ITEMS = 50
/** Levels of nested objects inside one hit that fields are listed from. */
const FIELD_DEPTH = 3
const SAMPLE_CHARS = 80
const MAX_VIOLATIONS = 50

/** Names servers give each field, best first; matched without case, `_` or `-`. */
const ROLE_NAMES: Record<FieldRole, readonly string[]> = {
  id: [
    'id',
    'docid',
    'documentid',
    'chunkid',
    'uuid',
    'key',
    'resource',
    'uri',
    'url',
    'filepath',
    'path',
    'name',
  ],
  title: ['title', 'name', 'heading', 'headline', 'label', 'subject', 'filename', 'pagetitle'],
  text: [
    'text',
    'content',
    'body',
    'pagecontent',
    'chunk',
    'chunktext',
    'markdown',
    'document',
    'observations',
    'fulltext',
    'passage',
    'contents',
  ],
  snippet: [
    'snippet',
    'excerpt',
    'summary',
    'highlight',
    'highlights',
    'preview',
    'abstract',
    'description',
  ],
  uri: [
    'uri',
    'url',
    'href',
    'link',
    'permalink',
    'sourceurl',
    'resource',
    'filepath',
    'path',
    'file',
    'source',
  ],
  score: [
    'score',
    'similarity',
    'relevance',
    'relevancescore',
    'similarityscore',
    'rerankscore',
    'confidence',
    'distance',
    'dist',
    'cosinedistance',
    'rank',
  ],
  sourceId: ['sourceid', 'collection', 'namespace', 'datasource', 'corpus', 'section', 'category'],
}
/** Roles whose field holds text; `score` holds a number. */
const TEXT_KINDS: Record<FieldRole, readonly FieldKind[]> = {
  id: ['string', 'number'],
  title: ['string'],
  text: ['string', 'strings'],
  snippet: ['string', 'strings'],
  uri: ['string'],
  score: ['number'],
  sourceId: ['string'],
}
/** Names of arrays that usually hold the hits. */
const LIST_NAMES = new Set([
  'results',
  'hits',
  'items',
  'documents',
  'docs',
  'matches',
  'data',
  'entities',
  'records',
  'chunks',
  'nodes',
  'passages',
  'sources',
  'articles',
  'pages',
  'rows',
  'value',
])
/** Field names of a reply's own error slot. */
const ERROR_NAMES = ['error', 'errors', 'err', 'errormessage']
/** Argument names that take the number of results. */
const LIMIT_NAMES = new Set([
  'limit',
  'topk',
  'k',
  'n',
  'topn',
  'maxresults',
  'numresults',
  'count',
  'size',
  'maxhits',
  'nresults',
])

/** A name as the lists above spell it: `page_content`, `pageContent` → `pagecontent`. */
const bare = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '')
const lastKey = (path: string): string =>
  path
    .split('.')
    .at(-1)!
    .replace(/\[\d+\]$/, '')
/** Keys a dotted mapping path can name (no dots or brackets, not empty). */
const pathable = (key: string): boolean => key !== '' && !/[.[\]]/.test(key)
const join = (base: string, key: string): string => (base === '' ? key : `${base}.${key}`)

function kindOf(value: unknown): FieldKind {
  if (value === null) return 'null'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  if (Array.isArray(value)) {
    return value.length > 0 && value.every((item) => typeof item === 'string') ? 'strings' : 'array'
  }
  return 'object'
}

function sampleOf(value: unknown): string {
  let text: string
  if (typeof value === 'string') text = value
  else if (Array.isArray(value))
    text = value
      .slice(0, 3)
      .map((item) => (typeof item === 'string' ? item : kindOf(item)))
      .join(' / ')
  else if (isRecord(value)) text = `{${Object.keys(value).slice(0, 5).join(', ')}}`
  else text = String(value)
  text = text.replace(/\s+/g, ' ').trim()
  return text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS)}…` : text
}

/** How hit-like a list's items are: fields whose names a role knows. */
function hitLikeness(items: readonly unknown[]): number {
  const names = new Set<string>()
  for (const item of items.slice(0, SAMPLE_ITEMS)) {
    if (isRecord(item)) for (const key of Object.keys(item).slice(0, 200)) names.add(bare(key))
  }
  let known = 0
  for (const role of FIELD_ROLES) if (ROLE_NAMES[role].some((name) => names.has(name))) known++
  return known
}

interface Found extends ListCandidate {
  rank: number
}

/** Every array of objects in the reply (bounded walk), most hit-like first. */
export function findLists(root: unknown): ListCandidate[] {
  const found: Found[] = []
  const seen = new Set<object>()
  let nodes = 0
  const visit = (value: unknown, path: string, depth: number): void => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return
    if (typeof value !== 'object' || value === null || seen.has(value)) return
    seen.add(value)
    if (Array.isArray(value)) {
      const sample = value.slice(0, SAMPLE_ITEMS)
      const objects = sample.filter(isRecord)
      if (objects.length > 0) {
        const keys = [...new Set(objects.slice(0, 5).flatMap((o) => Object.keys(o)))].slice(0, 12)
        const named = LIST_NAMES.has(bare(lastKey(path))) ? 2 : 0
        const share = objects.length / sample.length
        const rank = hitLikeness(objects) * 3 + named + share * 2 - depth * 0.5
        found.push({ path, items: value.length, keys, rank })
      }
      // Lists inside the items (a reply of groups) are candidates too; the first item shows them.
      const first = objects[0]
      if (first) visit(first, `${path}[0]`, depth + 1)
      return
    }
    for (const [key, child] of Object.entries(value)) {
      if (nodes > MAX_NODES) return
      if (pathable(key)) visit(child, join(path, key), depth + 1)
    }
  }
  visit(root, '', 0)
  return found
    .sort((a, b) => b.rank - a.rank || a.path.length - b.path.length)
    .slice(0, MAX_CANDIDATES)
    .map(({ rank: _rank, ...candidate }) => candidate)
}

/** The paths inside the items of a list, from its first items (bounded). */
export function fieldOptions(items: readonly unknown[]): FieldOption[] {
  const options = new Map<string, FieldOption>()
  const visit = (value: unknown, path: string, depth: number): void => {
    for (const [key, child] of Object.entries(value as Record<string, unknown>).slice(0, 200)) {
      if (!pathable(key)) continue
      const at = join(path, key)
      const kind = kindOf(child)
      const known = options.get(at)
      if (known) {
        known.seen++
        if (known.kind === 'null' && kind !== 'null') {
          known.kind = kind
          known.sample = sampleOf(child)
        }
      } else if (options.size < MAX_FIELDS) {
        options.set(at, { path: at, kind, sample: sampleOf(child), seen: 1 })
      }
      if (kind === 'object' && depth + 1 < FIELD_DEPTH) visit(child, at, depth + 1)
    }
  }
  for (const item of items.slice(0, SAMPLE_ITEMS)) if (isRecord(item)) visit(item, '', 0)
  return [...options.values()]
}

/**
 * The field a role's names point at, best name first, top-level before nested, then most seen.
 * An id must be in every item looked at and differ between them (a resource several hits share
 * is a link, not an id).
 */
function guessRole(
  role: FieldRole,
  options: readonly FieldOption[],
  taken: Set<string>,
  items: readonly unknown[],
) {
  let best: { option: FieldOption; order: number } | undefined
  for (const option of options) {
    if (!TEXT_KINDS[role].includes(option.kind) || taken.has(option.path)) continue
    if (role === 'id' && !distinct(items, option.path)) continue
    const index = ROLE_NAMES[role].indexOf(bare(lastKey(option.path)))
    if (index < 0) continue
    const depth = option.path.split('.').length - 1
    const order = index + depth * 100 - option.seen / 1000
    if (!best || order < best.order) best = { option, order }
  }
  return best?.option
}

/** Which way a score field runs, by its name, else by how its values run down the list. */
function scoreOrderOf(
  path: string,
  items: readonly unknown[],
): { order: ScoreOrder; note?: string } {
  const name = bare(lastKey(path))
  if (/dist/.test(name)) {
    return { order: 'lower-is-better', note: `\`${path}\` looks like a distance: lower is better` }
  }
  if (name === 'rank') {
    return { order: 'lower-is-better', note: `\`${path}\` looks like a rank: 1 is the best` }
  }
  if (/sim|relev|confid|certain/.test(name)) return { order: 'higher-is-better' }
  const values = items
    .slice(0, SAMPLE_ITEMS)
    .map((item) => (isRecord(item) ? readNumber(item, path) : undefined))
    .filter((value): value is number => value !== undefined)
  const rising = values.length > 1 && values.every((v, i) => i === 0 || v >= values[i - 1]!)
  if (rising && values.at(-1)! > values[0]!) {
    return {
      order: 'lower-is-better',
      note: `\`${path}\` grows down the list, so smaller looks better; check it`,
    }
  }
  return { order: 'higher-is-better' }
}

/** The value at a dotted path inside one item. */
function valueAt(item: unknown, path: string): unknown {
  let value: unknown = item
  for (const key of path.split('.')) value = isRecord(value) ? value[key] : undefined
  return value
}

function readNumber(item: Record<string, unknown>, path: string): number | undefined {
  const value = valueAt(item, path)
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** Whether every item looked at has a value at the path, each a different one. */
function distinct(items: readonly unknown[], path: string): boolean {
  const seen = new Set<unknown>()
  const sample = items.slice(0, SAMPLE_ITEMS).filter(isRecord)
  for (const item of sample) {
    const value = valueAt(item, path)
    if (value === undefined || value === null || value === '' || seen.has(value)) return false
    seen.add(value)
  }
  return sample.length > 0
}

/**
 * The argument template of a call: the argument that carried the sample query becomes
 * `{query}`, a number of results (`limit`, `top_k`, `k`, …) becomes `{topK}`, the rest is kept.
 */
export function argumentTemplate(call: ProposalCall): {
  template: Record<string, unknown>
  note?: string
} {
  const template: Record<string, unknown> = {}
  let query = false
  for (const [name, value] of Object.entries(call.arguments)) {
    if (name === call.queryArgument && typeof value === 'string') {
      template[name] = '{query}'
      query = true
    } else if (typeof value === 'number' && LIMIT_NAMES.has(bare(name))) {
      template[name] = '{topK}'
    } else {
      template[name] = value
    }
  }
  if (!query && call.queryArgument && !(call.queryArgument in template)) {
    template[call.queryArgument] = '{query}'
    query = true
  }
  return query
    ? { template }
    : {
        template,
        note: `no argument of ${call.tool} is known to take the query: put "{query}" where the search text goes`,
      }
}

/** The reply's own error slot at the root (`error`, `errors`), if it has one. */
function errorSlot(root: unknown): string | undefined {
  if (!isRecord(root)) return undefined
  return Object.keys(root).find((key) => ERROR_NAMES.includes(bare(key)) && pathable(key))
}

/** Why a tool result cannot be mapped before looking inside it, if it cannot. */
function unusable(raw: unknown): string | undefined {
  if (!isRecord(raw)) return 'the reply is not a tool result'
  if (raw.isError === true) {
    return 'the tool answered with an error (isError): call it with a query that finds something'
  }
  return undefined
}

/**
 * Proposes a mapping from one tool result. `choice` holds what the admin picked already: a hit
 * list (fields are guessed again for it), fields (`null`: none) and the score's direction.
 */
export function proposeMapping(
  raw: unknown,
  call: ProposalCall,
  choice: MappingChoice = {},
): MappingProposal {
  const notes: string[] = []
  const args = argumentTemplate(call)
  if (args.note) notes.push(args.note)
  const mapping: GenericSearchMapping = { tool: call.tool, arguments: args.template }
  const empty = (root: string, problem: string): MappingProposal => ({
    mapping,
    root,
    candidates: [],
    fields: [],
    roles: {},
    notes,
    problem,
  })
  const refused = unusable(raw)
  if (refused) return empty('', refused)
  const out = new Violations()
  const root = mappingRoot(raw, out)
  if (out.list.some((v) => v.rule === 'unparsable_json')) {
    return empty(
      root.path,
      'the reply is plain text, not JSON: a mapping needs structuredContent or a JSON text block',
    )
  }
  const candidates = findLists(root.value)
  const hitsPath = choice.hits ?? candidates[0]?.path
  const list = hitsPath === undefined ? undefined : listAt(root.value, hitsPath)
  if (hitsPath === undefined || !list) {
    const proposal = empty(
      root.path,
      hitsPath === undefined
        ? 'the reply holds no list of objects to take hits from'
        : `there is no list of objects at \`${hitsPath}\``,
    )
    proposal.candidates = candidates
    return proposal
  }
  mapping.hits = hitsPath
  const fields = fieldOptions(list)
  const roles: MappingProposal['roles'] = {}
  const chosen: Partial<Record<FieldRole, string>> = {}
  const taken = new Set<string>()
  for (const role of FIELD_ROLES) {
    const picked = choice.fields?.[role]
    if (picked === undefined) continue
    roles[role] = 'chosen'
    if (picked !== null && picked !== '') {
      chosen[role] = picked
      if (role !== 'id' && role !== 'uri') taken.add(picked)
    }
  }
  // Id and link may share a field (a URL is both); title, text and snippet each get their own.
  for (const role of ['title', 'text', 'snippet', 'score', 'uri', 'id', 'sourceId'] as const) {
    if (roles[role]) continue
    const guess = guessRole(role, fields, role === 'id' || role === 'uri' ? new Set() : taken, list)
    if (!guess) continue
    chosen[role] = guess.path
    roles[role] = 'guessed'
    if (role !== 'id' && role !== 'uri') taken.add(guess.path)
  }
  const ordered: Partial<Record<FieldRole, string>> = {}
  for (const role of FIELD_ROLES) if (chosen[role] !== undefined) ordered[role] = chosen[role]
  mapping.fields = ordered
  if (chosen.score !== undefined) {
    const direction = scoreOrderOf(chosen.score, list)
    mapping.scoreOrder = choice.scoreOrder ?? direction.order
    if (!choice.scoreOrder && direction.note) notes.push(direction.note)
  }
  const error = errorSlot(root.value)
  if (error !== undefined && error !== hitsPath) mapping.error = error
  if (chosen.text === undefined && chosen.snippet === undefined && chosen.title === undefined) {
    notes.push('no field looks like the text of a hit: pick one for text or snippet')
  }
  return { mapping, root: root.path, candidates, fields, roles, notes }
}

/** The array of objects at a path from the root, if that is what is there. */
function listAt(root: unknown, path: string): unknown[] | undefined {
  let value = root
  for (const part of path === '' ? [] : path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)]
    else value = isRecord(value) && Object.hasOwn(value, part) ? value[part] : undefined
  }
  return Array.isArray(value) && value.some(isRecord) ? value : undefined
}

/**
 * The hits a mapping makes of the reply, normalized exactly as a search through it would, cut
 * to {@link PREVIEW_HITS} and without their raw payloads.
 */
export function previewMapping(
  raw: unknown,
  server: string,
  mapping: GenericSearchMapping,
): MappingPreview {
  const output = parseGenericResult(raw, server, mapping)
  return {
    hits: output.hits.slice(0, PREVIEW_HITS).map(({ raw: _raw, ...hit }) => hit),
    count: output.hits.length,
    violations: output.violations.slice(0, MAX_VIOLATIONS),
  }
}
