import { z } from 'zod'
import type { GenericSearchMapping } from '../config/schema'
import { SCORE_ORDERS, type Hit, type Violation } from './rag'

/**
 * A generic search mapping proposed from one real reply of a tool (the Workbench's "Use as
 * search", `rag-console map`); worked out in the core (`dialects/mapping-proposal.ts`).
 */

/** The hit fields a mapping can name. */
export const FIELD_ROLES = ['id', 'title', 'text', 'snippet', 'uri', 'score', 'sourceId'] as const
export type FieldRole = (typeof FIELD_ROLES)[number]

/** An array of objects in the reply that could be the hit list. */
export interface ListCandidate {
  /** Path from the parsed root, as the mapping's `hits` takes it ("" is the root). */
  path: string
  /** Items in the array. */
  items: number
  /** Field names of its first items, for the admin to recognise it. */
  keys: string[]
}

/** What a hit field path holds, from the first items of the chosen list. */
export type FieldKind = 'string' | 'number' | 'strings' | 'boolean' | 'object' | 'array' | 'null'

/** A path inside one hit that a role can be mapped to. */
export interface FieldOption {
  path: string
  kind: FieldKind
  /** The first value, as short text. */
  sample: string
  /** In how many of the items looked at it is present. */
  seen: number
}

const fieldPath = z.string().max(1_000)

/** What the admin chose so far; roles not named are guessed, `null` maps a role to nothing. */
export const mappingChoiceSchema = z.object({
  hits: fieldPath.optional(),
  fields: z.partialRecord(z.enum(FIELD_ROLES), fieldPath.nullable()).optional(),
  scoreOrder: z.enum(SCORE_ORDERS).optional(),
})
export type MappingChoice = z.infer<typeof mappingChoiceSchema>

/** The call that produced the reply. */
export interface ProposalCall {
  tool: string
  arguments: Record<string, unknown>
  /** The argument that carried the sample query (see `queryArgument`), if known. */
  queryArgument?: string
}

export interface MappingProposal {
  /** The mapping to save (hits, fields, scoreOrder, arguments, error). */
  mapping: GenericSearchMapping
  /** Where the paths start: `structuredContent`, `content[0].text` (JSON text) or the result. */
  root: string
  /** Arrays of objects found in the reply, most hit-like first (at most 20). */
  candidates: ListCandidate[]
  /** Paths inside one hit of the chosen list (at most 100). */
  fields: FieldOption[]
  /** How each role was filled: `guessed` from a name, `chosen` by the admin, or unmapped. */
  roles: Partial<Record<FieldRole, 'guessed' | 'chosen'>>
  /** What the admin should know (a distance, a query argument that was not found). */
  notes: string[]
  /** Why no mapping can be made from this reply (plain text, no list of objects, an error). */
  problem?: string
}

/** The normalized hits a mapping makes of the reply, as the Search panel shows them. */
export interface MappingPreview {
  hits: Hit[]
  /** All the hits the reply holds (`hits` is cut to 20). */
  count: number
  violations: Violation[]
}

/** A tool that looks like search, with the argument its query would go into. */
export interface SearchSuggestion {
  tool: string
  /** The string argument that takes the query (required, or optional and named for it). */
  queryArgument: string
  /** Why it looks like search, in words ("its name says search"). */
  reason: string
  /** The server says the tool only reads (`readOnlyHint: true`). */
  readOnly: boolean
}

/** "`search_docs(query)`": a suggestion as the console shows it. */
export const describeSuggestion = (suggestion: SearchSuggestion): string =>
  `${suggestion.tool}(${suggestion.queryArgument})`
