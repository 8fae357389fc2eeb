/**
 * Heuristic detector for retrieved text that addresses a language model instead of a reader
 * ("ignore previous instructions", "reveal the system prompt"): spec 001 warns about data
 * poisoning. It flags, it never blocks; a person looks at the hit.
 */

const PATTERNS: { id: string; pattern: RegExp }[] = [
  {
    id: 'ignore_instructions',
    pattern:
      /\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(?:previous|prior|above|earlier|all|your|the)\b[^.!?\n]{0,20}\b(?:instructions?|prompts?|rules|directions|guidelines)\b/i,
  },
  {
    id: 'reveal_prompt',
    pattern:
      /\b(?:reveal|print|show|repeat|output|leak|disclose)\b[^.!?\n]{0,30}\b(?:system|hidden|initial|developer)\s+(?:prompt|instructions?|message)\b/i,
  },
  {
    id: 'role_override',
    pattern:
      /\b(?:you are now|from now on,? you|act as (?:an? )?(?:unrestricted|jailbroken)|pretend (?:to be|you are))\b/i,
  },
  {
    id: 'role_marker',
    // Spaces within the line only: `\s*` after a line end would also take the following line
    // ends, and a run of them would be searched again from each one (quadratic).
    pattern:
      /(?:^|\n)[^\S\n]*(?:system|assistant)[^\S\n]*:|<\|?(?:system|im_start|im_end)\|?>|\[\/?INST\]/i,
  },
  {
    id: 'exfiltrate',
    pattern:
      /\b(?:send|post|forward|email|exfiltrate)\b[^.!?\n]{0,40}\b(?:api[ _-]?keys?|passwords?|credentials|secrets?|tokens?)\b/i,
  },
]

/**
 * Every pattern in one expression: one pass over the text instead of five (about 2.5× faster
 * on search hits, where most text matches none). None of them has flags other than `i`.
 */
const ANY_PATTERN = new RegExp(
  PATTERNS.map(({ pattern }) => `(?:${pattern.source})`).join('|'),
  'i',
)

/** Bounded: a pathological megabyte of text is checked on its first 20k characters only. */
const sampleOf = (text: string): string => (text.length > 20_000 ? text.slice(0, 20_000) : text)

/**
 * Returns the id of the first injection pattern the text matches (`ignore_instructions`,
 * `reveal_prompt`, `role_override`, `role_marker`, `exfiltrate`), or undefined.
 */
export function detectPromptInjection(text: string | undefined): string | undefined {
  if (!text) return undefined
  const sample = sampleOf(text)
  if (!ANY_PATTERN.test(sample)) return undefined
  return PATTERNS.find(({ pattern }) => pattern.test(sample))?.id
}

/** Whether {@link detectPromptInjection} would name a pattern, in one pass over the text. */
export function looksLikeInjection(text: string | undefined): boolean {
  return !!text && ANY_PATTERN.test(sampleOf(text))
}
