/** Pretty JSON of anything a server sent; values JSON cannot hold are named, not thrown on. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch (error) {
    return `(cannot show as JSON: ${error instanceof Error ? error.message : String(error)})`
  }
}

/** `812 B`, `12.4 kB`, `1.2 MB` for a text's length in characters. */
export function formatSize(chars: number): string {
  if (chars < 1024) return `${chars} B`
  if (chars < 1024 * 1024) return `${(chars / 1024).toFixed(1)} kB`
  return `${(chars / 1024 / 1024).toFixed(1)} MB`
}

/** The head of `text` shown before "show all", and whether anything was cut. */
export function truncateText(text: string, limit: number): { shown: string; cut: boolean } {
  if (text.length <= limit) return { shown: text, cut: false }
  const end = text.lastIndexOf('\n', limit)
  return { shown: text.slice(0, end > limit / 2 ? end : limit), cut: true }
}
