/** A passage a synthesized answer quotes. */
export interface Passage {
  title: string
  text: string
  uri?: string | undefined
  resourceId?: string | undefined
}

/** Joins one sentence per passage with [n] markers; a sentence seen before only adds its marker. */
export function citeSentences(sentences: string[]): string {
  const parts: Array<{ sentence: string; marks: number[] }> = []
  sentences.forEach((sentence, i) => {
    const seen = parts.find((part) => part.sentence === sentence)
    if (seen) seen.marks.push(i + 1)
    else parts.push({ sentence, marks: [i + 1] })
  })
  return parts
    .map((part) => `${part.sentence} ${part.marks.map((n) => `[${n}]`).join('')}`)
    .join(' ')
}

/** Passages from a client's `provided_context.hits` (any hit with some text). */
export function providedPassages(hits: unknown[]): Passage[] {
  return hits.flatMap((raw) => {
    if (typeof raw !== 'object' || raw === null) return []
    const hit = raw as Record<string, unknown>
    const text = [hit.chunk, hit.snippet, hit.text].find((value) => typeof value === 'string')
    if (typeof text !== 'string') return []
    return [
      {
        title: typeof hit.title === 'string' ? hit.title : '',
        text,
        uri: typeof hit.uri === 'string' ? hit.uri : undefined,
        resourceId: typeof hit.resourceId === 'string' ? hit.resourceId : undefined,
      },
    ]
  })
}
