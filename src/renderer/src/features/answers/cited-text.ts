import type { Citation } from '#shared/model/rag'

/** A run of answer text, or a citation marker such as `[2]` linked to its citation. */
export type CitedPart =
  { kind: 'text'; text: string } | { kind: 'cite'; n: number; citation: Citation }

/** `[1]`, `[1, 3]`, `[2-4]`: bracketed citation numbers as models and servers write them. */
const MARKER = /\[(\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*)\]/g
/** A range like `[1-400]` is a typo, not 400 citations. */
const MAX_RANGE = 20

function numbersIn(marker: string): number[] | undefined {
  const numbers: number[] = []
  for (const part of marker.split(/\s*[,;]\s*/)) {
    const range = /^(\d+)\s*[–-]\s*(\d+)$/.exec(part)
    if (range) {
      const from = Number(range[1])
      const to = Number(range[2])
      if (to < from || to - from > MAX_RANGE) return undefined
      for (let n = from; n <= to; n++) numbers.push(n)
    } else numbers.push(Number(part))
  }
  return numbers
}

/**
 * Splits answer text into text runs and citation markers. A marker becomes citations only when
 * every number in it is a citation of the answer; otherwise it stays text (a year in brackets,
 * a list index), so nothing links to a source that does not exist.
 */
export function parseCitedText(text: string, citations: readonly Citation[]): CitedPart[] {
  const byNumber = new Map(citations.map((c) => [c.n, c]))
  const parts: CitedPart[] = []
  const pushText = (value: string): void => {
    if (!value) return
    const last = parts.at(-1)
    if (last?.kind === 'text') last.text += value
    else parts.push({ kind: 'text', text: value })
  }
  let at = 0
  for (const match of text.matchAll(MARKER)) {
    const numbers = numbersIn(match[1]!)
    const linked = numbers?.map((n) => byNumber.get(n))
    if (!linked || linked.some((c) => c === undefined)) continue
    pushText(text.slice(at, match.index))
    for (const citation of linked as Citation[]) {
      parts.push({ kind: 'cite', n: citation.n, citation })
    }
    at = match.index + match[0].length
  }
  pushText(text.slice(at))
  return parts
}

/** Citation numbers the text never refers to (shown after the answer so none is lost). */
export function uncitedCitations(text: string, citations: readonly Citation[]): Citation[] {
  const used = new Set(
    parseCitedText(text, citations).flatMap((part) => (part.kind === 'cite' ? [part.n] : [])),
  )
  return citations.filter((c) => !used.has(c.n))
}
