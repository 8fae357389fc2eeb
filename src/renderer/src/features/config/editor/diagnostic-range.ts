import type { Diagnostic } from '#shared/model/registry'

const TOKEN = /^("(?:[^"\\]|\\.)*"?|[\w$.+-]+|.)/

/**
 * The span a diagnostic underlines: the token starting at its column (a whole quoted key or
 * string, a number or word, or one character), clamped to the line.
 */
export function tokenSpan(lineText: string, column: number): { start: number; end: number } {
  const start = Math.min(Math.max(0, column - 1), lineText.length)
  const match = TOKEN.exec(lineText.slice(start))
  const length = match ? match[0].length : 0
  return { start, end: start + length }
}

/** Offsets of a 1-based line/column diagnostic in a document, for the editor. */
export function diagnosticOffsets(
  doc: { lines: number; line: (n: number) => { from: number; to: number; text: string } },
  diagnostic: Pick<Diagnostic, 'line' | 'column'>,
): { from: number; to: number } {
  const line = doc.line(Math.min(Math.max(1, diagnostic.line), doc.lines))
  const span = tokenSpan(line.text, diagnostic.column)
  return { from: line.from + span.start, to: line.from + span.end }
}
