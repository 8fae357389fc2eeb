/** What a new golden set starts from in the New set dialog. */
export type SetOrigin = 'empty' | 'json' | 'qrels'

/** The largest file the console takes (as the IPC contract caps TREC text). */
export const MAX_IMPORT_BYTES = 20_000_000

/** A file as the dialog read it. */
export interface PickedFile {
  name: string
  text: string
}

/** The notice an import that skipped unreadable lines gives. */
export function skippedNotice(skipped: number, fileName: string): string {
  return `${skipped} line${skipped === 1 ? '' : 's'} of ${fileName} could not be read and ${skipped === 1 ? 'was' : 'were'} skipped.`
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
