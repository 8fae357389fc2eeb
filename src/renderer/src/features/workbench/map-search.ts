import type { SaveResult } from '#shared/ipc/registry'
import type { FieldOption, FieldRole, MappingChoice, MappingProposal } from '#shared/model/mapping'
import type { ScoreOrder } from '#shared/model/rag'
import { plural } from '../../lib/format'

/**
 * The "Use as search" editor's pure parts: how a pick changes the choice sent to the core, the
 * texts each field shows, and what a save in the Config preview came to.
 */

export const ROLE_LABELS: Record<FieldRole, { label: string; hint: string }> = {
  id: { label: 'Id', hint: "the hit's own id; without one the link stands in" },
  title: { label: 'Title', hint: 'without one, the first sentence of the text' },
  text: { label: 'Text', hint: 'the passage or document text' },
  snippet: { label: 'Snippet', hint: 'a short excerpt shown under the title' },
  uri: { label: 'Link', hint: 'a URL, URI or file path' },
  score: { label: 'Score', hint: 'a number: similarity, relevance or distance' },
  sourceId: { label: 'Source', hint: 'shown as the hit’s source' },
}

/** The select value that maps a role to nothing. */
export const NONE = ''

export const ORDERS: readonly { value: ScoreOrder; label: string }[] = [
  { value: 'higher-is-better', label: 'Higher is better (similarity)' },
  { value: 'lower-is-better', label: 'Lower is better (distance)' },
]

export interface MapOutcome {
  tone: 'ok' | 'bad' | 'warn'
  text: string
}

/** The choice with one role mapped to a path, or to nothing (`NONE`); other roles stay. */
export function withField(choice: MappingChoice, role: FieldRole, path: string): MappingChoice {
  return { ...choice, fields: { ...choice.fields, [role]: path === NONE ? null : path } }
}

/** Another hit list: the fields picked for the old one no longer apply; the score order stays. */
export function withHits(choice: MappingChoice, hits: string): MappingChoice {
  return { hits, ...(choice.scoreOrder ? { scoreOrder: choice.scoreOrder } : {}) }
}

/** The hint under a role's select; a guessed role says so. */
export function roleHint(role: FieldRole, proposal: MappingProposal): string {
  return proposal.roles[role] === 'guessed'
    ? `Guessed from its name: ${ROLE_LABELS[role].hint}`
    : ROLE_LABELS[role].hint
}

/** A role's options: nothing, then each path with its first value (or its kind when empty). */
export function fieldOptions(fields: readonly FieldOption[]): { value: string; label: string }[] {
  return [
    { value: NONE, label: '(none)' },
    ...fields.map((field) => ({
      value: field.path,
      label: `${field.path} — ${field.sample || field.kind}`,
    })),
  ]
}

/** How far a candidate list is indented: one step per level below the root. */
export function listDepth(path: string): number {
  return path === '' ? 0 : path.split('.').length - 1
}

/** Rows the preview makes room for: its hits, at least one and at most six. */
export function previewRows(hits: number): number {
  return Math.max(1, Math.min(hits, 6))
}

/** What saving the mapping in the Config preview came to, as the banner says it. */
export function saveOutcome(result: SaveResult, server: string, tool: string): MapOutcome {
  if (result.status === 'saved') {
    return {
      tone: 'ok',
      text: `Saved to ${result.path}: ${server} now searches through ${tool}. Try it in Search.`,
    }
  }
  if (result.status === 'conflict') {
    return {
      tone: 'warn',
      text: 'rag-mcp.json changed on disk meanwhile; nothing was saved. Save again to review the mapping against the new version.',
    }
  }
  return {
    tone: 'bad',
    text: `Not saved: the file would have ${plural(result.diagnostics.length, 'problem')}; see Config.`,
  }
}
