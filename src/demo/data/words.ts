/** Lower-cases a sentence's first letter unless it starts an acronym ("API keys …"). */
export function lowerFirst(sentence: string | undefined): string {
  const text = sentence ?? ''
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text
}
