const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/u
const CJK_RUNS =
  /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+|[^\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+/gu

const STOPWORDS = new Set(
  (
    'a about all also an and any are as at be by can could do does for from get got has have ' +
    'how i if in into is it its just know many may me more most much my need of on or our ' +
    'please should so some tell than that the their them then there these they this to us ' +
    'want was we were what when where which who why will with would you your'
  ).split(' '),
)

/**
 * Splits text into index terms: words on Unicode letter/digit boundaries, and character
 * bigrams inside CJK runs (Japanese has no spaces between words).
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = []
  for (const word of text.split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue
    if (!CJK.test(word)) {
      tokens.push(word)
      continue
    }
    for (const run of word.match(CJK_RUNS) ?? []) {
      if (!CJK.test(run)) tokens.push(run)
      else if (run.length === 1) tokens.push(run)
      else for (let i = 0; i < run.length - 1; i++) tokens.push(run.slice(i, i + 2))
    }
  }
  return tokens
}

/** Lower-cases a term and drops stop words and one-letter Latin terms. */
export function processTerm(term: string): string | null {
  const lower = term.toLowerCase()
  if (STOPWORDS.has(lower)) return null
  if (lower.length < 2 && !CJK.test(lower)) return null
  return lower
}

/**
 * Terms of texts seen before: every query reads the same corpus passages again, and a demo
 * process answering many endpoints at once should not spend its CPU on them each time.
 */
const seenTerms = new Map<string, readonly string[]>()
const TERMS_KEPT = 20_000

/** The distinct meaningful terms of a query (or passage). */
export function queryTerms(text: string): readonly string[] {
  let terms = seenTerms.get(text)
  if (!terms) {
    const all = tokenize(text)
      .map(processTerm)
      .filter((term): term is string => term !== null)
    terms = [...new Set(all)]
    if (seenTerms.size >= TERMS_KEPT) seenTerms.clear()
    seenTerms.set(text, terms)
  }
  return terms
}

/** Sentences of a passage (naive punctuation split, also 。 for Japanese). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。])\s+|(?<=。)/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean)
}

/** Fraction of the terms that occur in the text (prefix match, as the index does). */
export function coverage(text: string, terms: readonly string[]): number {
  if (terms.length === 0) return 0
  const words = queryTerms(text)
  const hit = terms.filter((term) =>
    words.some((word) => word.startsWith(term) || (term.startsWith(word) && word.length > 3)),
  )
  return hit.length / terms.length
}

/** The sentence of a passage that best matches the terms, cut to `max` characters. */
export function bestSentence(text: string, terms: readonly string[], max = 240): string {
  const all = sentences(text)
  let best = all[0] ?? text
  let bestScore = -1
  for (const sentence of all) {
    const score = coverage(sentence, terms)
    if (score > bestScore) {
      best = sentence
      bestScore = score
    }
  }
  return truncate(best, max)
}

/** Cuts text to `max` characters at a word boundary, with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`
}

/** At most `count` words. */
export function firstWords(text: string, count: number): string {
  const words = text.split(/\s+/).filter(Boolean)
  return words.slice(0, count).join(' ')
}
