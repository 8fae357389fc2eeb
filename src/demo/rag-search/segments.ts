import { decideAccess } from '../access'
import { SOURCE_NAMES } from '../data/corpus'
import type { ChunkHit } from '../search/index'
import { bestSentence, firstWords, queryTerms } from '../search/text'
import { citationUrl, freshUrl, type LinkContext } from '../links'
import type { Doc } from '../data/types'

/** One segment exactly as spec 000 defines it (optional fields absent, never null). */
export interface Segment {
  segment_uid: string
  source_file_name: string
  source_file_type: string
  headline?: string
  segment_summary?: string
  raw_text: string
  source_url?: string
}

/**
 * Headline of at most 10 words: "title: section" past the first section when it fits, else
 * the section heading, else the title cut to 10 words.
 */
function headline(hit: ChunkHit): string | undefined {
  const { title } = hit.doc
  if (!title) return undefined
  const words = (text: string): number => text.split(/\s+/).filter(Boolean).length
  const heading = hit.chunk.heading
  if (hit.chunk.index > 0 && heading) {
    const both = `${title}: ${heading}`
    if (words(both) <= 10) return both
    if (words(heading) <= 10) return heading
  }
  return firstWords(title, 10)
}

/** A two-sentence summary: where the segment comes from, then its most relevant sentence. */
function summary(hit: ChunkHit, terms: readonly string[]): string {
  const where = hit.chunk.heading ? `Section "${hit.chunk.heading}" of` : 'From'
  const title = hit.doc.title || hit.doc.fileName
  const origin = `${where} ${title} (${SOURCE_NAMES[hit.doc.source]}, updated ${hit.doc.updated.slice(0, 10)}).`
  return `${origin} ${bestSentence(hit.chunk.text, terms, 200)}`
}

/** Turns a retrieved chunk into a spec 000 segment for the user in `links`. */
export function toSegment(hit: ChunkHit, query: string, links: LinkContext): Segment {
  const title = hit.doc.omit.headline ? undefined : headline(hit)
  const url = citationUrl(hit.doc, links)
  // Keys in the spec's order; optional ones absent rather than null.
  return {
    segment_uid: hit.chunk.id,
    source_file_name: hit.doc.fileName,
    source_file_type: hit.doc.fileType,
    ...(title ? { headline: title } : {}),
    ...(hit.doc.omit.summary ? {} : { segment_summary: summary(hit, queryTerms(query)) }),
    raw_text: hit.chunk.text,
    ...(url ? { source_url: url } : {}),
  }
}

/** The `verify_document_access` result of spec 000. */
export interface AccessAnswer {
  has_access: boolean
  refreshed_url: string | null
  access_level?: string
  error: string | null
}

/** Access of the current user to a document, with a freshly signed link when allowed. */
export function verifyAccess(
  doc: Doc | undefined,
  segmentUid: string,
  groups: string[],
  links: LinkContext,
): AccessAnswer {
  if (!doc)
    return { has_access: false, refreshed_url: null, error: `Unknown segment: ${segmentUid}` }
  const decision = decideAccess(doc, links.userId, groups)
  if (!decision.ok) return { has_access: false, refreshed_url: null, error: decision.message }
  return {
    has_access: true,
    refreshed_url: freshUrl(doc, links) ?? null,
    access_level: decision.level,
    error: null,
  }
}
