import type { Answer, Citation, Violation } from '#shared/model/rag'
import { plural } from '../../lib/format'
import type { Tone } from '../../ui'

/**
 * What an answer card says about an answer and its citations, worked out from the answer: who
 * wrote it, what it can say about itself, how each citation is named, and its violations.
 */

/** The element id of a citation in its card's list (the chips scroll to it). */
export const citationDomId = (server: string, n: number): string =>
  `cite-${encodeURIComponent(server)}-${n}`

/** Who wrote the answer: the server's own synthesis tool, or the console from the top hits. */
export function modeBadge(answer: Pick<Answer, 'mode'>): {
  tone: Tone
  title: string
  label: string
} {
  return answer.mode === 'server'
    ? { tone: 'info', title: "The server's own synthesis tool wrote this answer", label: 'server' }
    : {
        tone: 'neutral',
        title: 'The console built this answer from the top hits (extractive)',
        label: 'client',
      }
}

/**
 * What an answer can say about itself: the server's own confidence, or for the console's
 * extractive answer (no model, so no confidence) how many of the query's words it contains.
 */
export function answerMeasure(
  answer: Pick<Answer, 'mode' | 'confidence' | 'coverage'>,
): { text: string; title: string } | null {
  if (answer.mode === 'server' && answer.confidence !== undefined) {
    return {
      text: `confidence ${Math.round(answer.confidence * 100)}%`,
      title: 'The confidence the server reported',
    }
  }
  if (answer.mode === 'client' && answer.coverage && answer.coverage.total > 0) {
    return {
      text: `${answer.coverage.matched} of ${plural(answer.coverage.total, 'query word')} found`,
      title:
        "Built by the console from the top hits: no model and no confidence score; this counts the query's words its sentences contain",
    }
  }
  return null
}

/** The answer text reads like instructions to a model. */
export const isSuspicious = (answer: Pick<Answer, 'flags'> | undefined): boolean =>
  answer?.flags?.includes('suspicious') ?? false

/** A citation's chip: its accessible name and tooltip (which says when its hit is not here). */
export function chipText(citation: Citation, found: boolean): { name: string; title: string } {
  return {
    name: `Citation ${citation.n}: ${citation.title ?? citation.uri ?? citation.hitId ?? ''}`,
    title: `${citation.title ?? ''}${found ? '' : ' (not among the hits of this search)'}`,
  }
}

/** A citation's line in the list: what it is called, and where it comes from. */
export function citationLine(citation: Citation): { label: string; where: string } {
  return {
    label: citation.title ?? citation.uri ?? citation.hitId ?? 'untitled',
    where: [citation.sourceId, citation.server].filter(Boolean).join(' · '),
  }
}

/** The badge under an answer that breaks its family's contract: a count, each path in its title. */
export function violationsBadge(violations: readonly Violation[]): {
  label: string
  title: string
} {
  return {
    label: `${violations.length} contract violation${violations.length === 1 ? '' : 's'}`,
    title: violations.map((v) => `${v.path}: ${v.message}`).join('\n'),
  }
}
