import type { Answer, Citation, Hit } from '#shared/model/rag'
import { splitSentences } from '#shared/text/sentences'

const STOPWORDS = new Set(
  'a an and are as at be by can do does for from has have how i in is it of on or our the to was we what when where which who why will with you your'.split(
    ' ',
  ),
)

export interface ExtractiveOptions {
  /** Hits considered, in rank order. */
  maxHits?: number
  /** Sentences in the answer. */
  maxSentences?: number
}

function terms(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word.length > 2 && !STOPWORDS.has(word)),
    ),
  ]
}

/**
 * The console's own answer for a server without a synthesis tool: the sentences of its top
 * hits that share the most words with the query, each followed by a numbered citation of the
 * hit it came from. No model is involved, so nothing is invented, and nothing is confident
 * either: `coverage` counts the query's words the answer contains; when no sentence mentions
 * any of them the answer is silent with the reason.
 */
export function extractiveAnswer(
  server: string,
  query: string,
  hits: Hit[],
  options: ExtractiveOptions = {},
): Answer {
  const queryTerms = terms(query)
  const candidates: {
    hitIndex: number
    order: number
    sentence: string
    score: number
    covered: string[]
  }[] = []
  const usable = hits
    .filter((hit) => !hit.flags.includes('suspicious'))
    .slice(0, options.maxHits ?? 5)
  usable.forEach((hit, hitIndex) => {
    splitSentences(hit.text ?? hit.snippet).forEach((sentence, order) => {
      const words = new Set(terms(sentence))
      const covered = queryTerms.filter((term) => words.has(term))
      if (covered.length === 0) return
      // Earlier hits and earlier sentences win ties: the server ranked them higher.
      const score = covered.length - hitIndex * 0.1 - order * 0.01
      candidates.push({ hitIndex, order, sentence, score, covered })
    })
  })

  if (candidates.length === 0) {
    return {
      server,
      mode: 'client',
      text: '',
      citations: [],
      coverage: { matched: 0, total: queryTerms.length },
      silence: {
        reason:
          usable.length === 0
            ? 'the server returned no usable hits to build an answer from'
            : `none of the top ${usable.length} hits mentions the words of the question`,
      },
      violations: [],
    }
  }

  // The same sentence often sits in several hits (copies, overlapping chunks): say it once,
  // cited to the best-ranked hit that has it.
  const seen = new Set<string>()
  const chosen = candidates
    .sort((a, b) => b.score - a.score)
    .filter((candidate) => {
      const key = candidate.sentence.toLowerCase().replace(/\s+/g, ' ').trim()
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    .slice(0, options.maxSentences ?? 4)
    .sort((a, b) => a.hitIndex - b.hitIndex || a.order - b.order)

  const citations: Citation[] = []
  const numberOf = new Map<number, number>()
  const parts = chosen.map(({ hitIndex, sentence }) => {
    let n = numberOf.get(hitIndex)
    if (n === undefined) {
      n = citations.length + 1
      numberOf.set(hitIndex, n)
      citations.push(citationFor(usable[hitIndex]!, n))
    }
    return `${sentence} [${n}]`
  })
  const covered = new Set(chosen.flatMap((c) => c.covered))
  return {
    server,
    mode: 'client',
    text: parts.join(' '),
    citations,
    coverage: { matched: covered.size, total: queryTerms.length },
    violations: [],
  }
}

function citationFor(hit: Hit, n: number): Citation {
  const citation: Citation = {
    n,
    server: hit.server,
    hitId: hit.id,
    title: hit.title,
    snippet: hit.snippet,
  }
  if (hit.sourceId !== undefined) citation.sourceId = hit.sourceId
  if (hit.uri !== undefined) citation.uri = hit.uri
  return citation
}
