import { readFileSync } from 'node:fs'

/** A stored file's text; `missing()` is thrown when it cannot be read (absent, unreadable). */
export function readStored(path: string, missing: () => Error): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    throw missing()
  }
}
