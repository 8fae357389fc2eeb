/**
 * Sentence helpers for the "basic punctuation rules" spec 000 uses to fill in a segment's
 * missing headline (first sentence) and summary (second and third sentences). Pure and
 * deterministic, so the renderer can show the same derivation the main process made.
 *
 * Rules: a sentence ends at `.`, `!`, `?` or `…` (runs of them, plus closing quotes or brackets)
 * followed by whitespace, at `。`, `！`, `？` directly, and at a blank line. A period after a
 * known abbreviation (`e.g.`, `Dr.`), a single capital letter or a dotted acronym (`U.S.`) does
 * not end one; a period inside a token (`2.3`, `example.com`) never does.
 */

/** Upper bound on a derived headline; longer first sentences are clipped at a word boundary. */
export const HEADLINE_MAX_CHARS = 120
/** Upper bound on every hit's snippet. */
export const SNIPPET_MAX_CHARS = 240

const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'cf',
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'inc',
  'ltd',
  'co',
  'no',
  'fig',
  'approx',
  'dept',
])

const CLOSERS = `"')]}’”»`

function isAbbreviation(token: string): boolean {
  const word = token.replace(/^[("'[{‘“«]+/, '').replace(/\.$/, '')
  if (ABBREVIATIONS.has(word.toLowerCase())) return true
  // A single capital ("J. Smith") or a dotted acronym ("U.S.").
  return /^[A-Z]$/.test(word) || /^(?:[A-Za-z]\.)+[A-Za-z]$/.test(word)
}

/**
 * Splits text into trimmed sentences following the rules above; never returns empty strings.
 * With `limit`, stops after that many (the headline needs one sentence of a long text, the
 * summary three).
 */
export function splitSentences(text: string, limit = Infinity): string[] {
  const sentences: string[] = []
  let start = 0
  const push = (end: number): void => {
    const sentence = text.slice(start, end).replace(/\s+/g, ' ').trim()
    if (sentence) sentences.push(sentence)
    start = end
  }
  let i = 0
  while (i < text.length && sentences.length < limit) {
    const ch = text[i] as string
    if (ch === '\n' && /^\n[^\S\n]*\n/.test(text.slice(i, i + 64))) {
      push(i)
      i += 1
      continue
    }
    if (ch === '。' || ch === '！' || ch === '？') {
      push(i + 1)
      i += 1
      continue
    }
    if (ch === '.' || ch === '!' || ch === '?' || ch === '…') {
      let end = i + 1
      while (end < text.length && '.!?…'.includes(text[end] as string)) end++
      while (end < text.length && CLOSERS.includes(text[end] as string)) end++
      const atBoundary = end >= text.length || /\s/.test(text[end] as string)
      if (atBoundary) {
        // The word the mark ends: back to the last whitespace (not a split of all text before).
        let from = i
        while (from > 0 && !/\s/.test(text[from - 1] as string)) from--
        const token = text.slice(from, i + 1)
        if (!(ch === '.' && end === i + 1 && isAbbreviation(token))) push(end)
      }
      i = end
      continue
    }
    i++
  }
  if (sentences.length < limit) push(text.length)
  return sentences
}

/** Raw characters past `max` that {@link clip} flattens before it falls back to the whole text. */
const CLIP_SLACK = 32

const flatten = (text: string): string => text.replace(/\s+/g, ' ').trim()

/** Clips text to `max` characters at a word boundary, ending with `…` when it was cut. */
export function clip(text: string, max: number): string {
  // Only the start of a longer text can show: its first `max + 32` characters, flattened, hold
  // the part kept unless more than 32 of them are whitespace that collapses (then the whole
  // text is flattened). Flattening whole texts was ~10 % of what a 100-server search allocates.
  const room = max + CLIP_SLACK
  const head = text.length > room ? flatten(text.slice(0, room)) : ''
  const flat = head.length > max ? head : flatten(text)
  if (flat.length <= max) return flat
  const cut = flat.slice(0, Math.max(1, max - 1))
  const lastSpace = cut.lastIndexOf(' ')
  const body = lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut
  return `${body.replace(/[\s,;:.-]+$/, '')}…`
}

/** The first sentence, without a trailing period, clipped to {@link HEADLINE_MAX_CHARS}. */
export function deriveHeadline(text: string): string | undefined {
  const first = splitSentences(text, 1)[0]
  if (!first) return undefined
  return clip(first.replace(/(?<!\.)\.$/, ''), HEADLINE_MAX_CHARS)
}

/** The second and third sentences joined by a space, or undefined when the text has only one. */
export function deriveSummary(text: string): string | undefined {
  const rest = splitSentences(text, 3).slice(1, 3)
  return rest.length > 0 ? rest.join(' ') : undefined
}

/** A short preview: the text flattened and clipped to {@link SNIPPET_MAX_CHARS}. */
export function makeSnippet(text: string, max = SNIPPET_MAX_CHARS): string {
  return clip(text, max)
}

/** Whitespace-separated words, as the "headline up to 10 words" rule counts them. */
export function countWords(text: string): number {
  const trimmed = text.trim()
  return trimmed ? trimmed.split(/\s+/).length : 0
}
