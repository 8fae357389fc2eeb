/** What a new golden set starts from in the New set dialog. */
export type SetOrigin = 'empty' | 'json' | 'qrels'

/** The largest file the console takes (as the IPC contract caps TREC text). */
export const MAX_IMPORT_BYTES = 20_000_000

/** A file as the dialog read it. */
export interface PickedFile {
  name: string
  text: string
}

/** How long the notice of skipped lines stays (the import itself succeeded). */
export const NOTICE_MS = 20_000

/** Line numbers named before the rest are counted. */
const NAMED = 5

/**
 * The notice of an import that skipped something: which lines could not be read (`lines`, the
 * first ones the core names), and how many entries were left out in all.
 */
export function skippedNotice(
  skipped: number,
  fileName: string,
  lines: readonly number[] = [],
): { message: string; detail?: string } {
  if (lines.length === 0) {
    return {
      message: `${skipped} ${skipped === 1 ? 'entry' : 'entries'} of ${fileName} ${skipped === 1 ? 'was' : 'were'} left out.`,
    }
  }
  const named = lines.slice(0, NAMED)
  const rest = skipped - named.length
  const which =
    lines.length === 1
      ? `Line ${lines[0]}`
      : `Lines ${named.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`
  const notice = {
    message: `${which} of ${fileName} could not be read and ${lines.length === 1 ? 'was' : 'were'} skipped.`,
  }
  return skipped > lines.length && lines.length < 20
    ? {
        ...notice,
        detail: `${skipped} entries were left out in all; the others are for queries the set has no text for.`,
      }
    : notice
}

/** A set name from a file name: `support-qrels.txt` → `support-qrels`. */
export function nameFromFile(fileName: string): string {
  return fileName.replace(/\.(json|jsonc|qrels|txt|tsv|trec)$/i, '').slice(0, 200)
}

/**
 * A golden set file's JSON as an object to save, with the id it gets here: its own unless a
 * set has it already (an import never replaces a set), and the name typed in the dialog.
 */
export function goldenSetFrom(
  file: PickedFile,
  name: string,
  idFor: (name: string) => string,
  taken: ReadonlySet<string>,
): { set: Record<string, unknown> } | { error: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(file.text)
  } catch (failure) {
    return { error: `${file.name} is not JSON: ${(failure as Error).message}` }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: `${file.name} is not a golden set: it must hold one JSON object` }
  }
  const own = (parsed as { id?: unknown }).id
  const id = typeof own === 'string' && own !== '' && !taken.has(own) ? own : idFor(name)
  return { set: { ...parsed, id, name } }
}

/** What keeps the dialog from creating the set: no name, or no file to read it from. */
export function newSetProblem(
  name: string,
  origin: SetOrigin,
  file: PickedFile | undefined,
): { name: string } | { file: string } | undefined {
  if (!name.trim()) return { name: 'Give the set a name.' }
  if (origin !== 'empty' && !file) return { file: 'Choose the file to read the set from.' }
  return undefined
}

/** A failed import's message for a person choosing a file: the IPC channel's name says nothing. */
export function importFailure(message: string): string {
  return message.replace(/^eval:[a-z:-]+: invalid request: /, '')
}

/** The file the set is read from, by origin: the field's label and the file types offered. */
export function setFileField(origin: 'json' | 'qrels'): { label: string; accept: string } {
  return origin === 'json'
    ? { label: 'Golden set file', accept: '.json,application/json' }
    : { label: 'Qrels file', accept: '.qrels,.txt,.tsv,text/plain' }
}
