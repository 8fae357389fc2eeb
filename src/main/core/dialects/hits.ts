import type { Hit, HitFlag } from '#shared/model/rag'
import { SNIPPET_MAX_CHARS, clip, deriveHeadline, deriveSummary } from '#shared/text/sentences'
import { joinPath, type Violations } from './shape'

/** What an adapter read from one raw hit, before the common normalisation. */
export interface HitDraft {
  /** The server's id for the hit; when absent the uri or the position stands in. */
  id?: string | undefined
  title?: string | undefined
  snippet?: string | undefined
  text?: string | undefined
  summary?: string | undefined
  score?: number | undefined
  uri?: string | undefined
  sourceId?: string | undefined
  fileName?: string | undefined
  fileType?: string | undefined
  timestamp?: string | undefined
  provenance?: unknown
}

function present(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined
}

/**
 * Builds the normalized hits of one reply. Each raw hit is read by the adapter's own function;
 * the violations it records while reading become the hit's own, duplicate ids are reported,
 * and title, summary and snippet are filled in the same way for every family:
 * - title: the server's, else the first sentence of the text (or snippet), else the file name,
 *   else the id: `derived.title`;
 * - summary: the server's, else the text's second and third sentences: `derived.summary`;
 * - snippet: the server's, else the start of the text, summary or title; always clipped to
 *   {@link SNIPPET_MAX_CHARS}.
 */
export class HitCollector {
  readonly hits: Hit[] = []
  private readonly seen = new Set<string>()

  constructor(
    private readonly server: string,
    private readonly out: Violations,
  ) {}

  /**
   * Reads one raw hit at `path`. `idKey` names the field the family keeps the id in, so a
   * duplicate is reported at that field's path.
   */
  add(raw: unknown, path: string, idKey: string, read: () => HitDraft): Hit {
    const mark = this.out.list.length
    const draft = read()
    const serverId = present(draft.id)
    if (serverId !== undefined) {
      if (this.seen.has(serverId)) {
        this.out.add(
          'duplicate_id',
          joinPath(path, idKey),
          `id ${serverId} appears twice`,
          serverId,
        )
      }
      this.seen.add(serverId)
    }
    const hit = finishHit(this.server, draft, raw, `#${this.hits.length}`)
    hit.violations = this.out.since(mark)
    if (hit.violations.length > 0) hit.flags.unshift('violations')
    this.hits.push(hit)
    return hit
  }
}

/** Normalises one draft (see {@link HitCollector}); `fallbackId` is used when it has no id/uri. */
export function finishHit(server: string, draft: HitDraft, raw: unknown, fallbackId: string): Hit {
  const text = present(draft.text)
  const serverTitle = present(draft.title)
  const serverSummary = present(draft.summary)
  const id = present(draft.id) ?? present(draft.uri) ?? fallbackId

  const derivedTitle = serverTitle === undefined
  const title =
    serverTitle ?? deriveHeadline(text ?? draft.snippet ?? '') ?? present(draft.fileName) ?? id
  const derivedSummaryText = serverSummary === undefined && text ? deriveSummary(text) : undefined
  const summary = serverSummary ?? derivedSummaryText
  const snippetSource = present(draft.snippet) ?? text ?? summary ?? title
  const snippet = clip(snippetSource, SNIPPET_MAX_CHARS)

  const flags: HitFlag[] = []
  if (derivedTitle) flags.push('derived_title')
  if (derivedSummaryText !== undefined) flags.push('derived_summary')

  const hit: Hit = {
    server,
    id,
    title,
    snippet,
    derived: { title: derivedTitle, summary: derivedSummaryText !== undefined },
    flags,
    violations: [],
    raw,
  }
  if (draft.sourceId !== undefined) hit.sourceId = draft.sourceId
  if (text !== undefined) hit.text = text
  if (summary !== undefined) hit.summary = summary
  if (draft.score !== undefined) hit.score = draft.score
  const uri = present(draft.uri)
  if (uri !== undefined) hit.uri = uri
  if (draft.fileName !== undefined) hit.fileName = draft.fileName
  if (draft.fileType !== undefined) hit.fileType = draft.fileType
  if (draft.timestamp !== undefined) hit.timestamp = draft.timestamp
  if (draft.provenance !== undefined) hit.provenance = draft.provenance
  return hit
}
