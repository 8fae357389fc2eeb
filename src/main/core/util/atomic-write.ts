import { randomBytes } from 'node:crypto'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/** The backup kept beside a registry file: its previous content. */
export const backupPath = (path: string): string => `${path}.bak`

/** A hidden, unique name beside `path` for a file about to be renamed over it. */
export const tempPath = (path: string): string =>
  join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)

/**
 * Replaces a small file atomically: a temp file in the same folder is written and renamed over
 * it, so readers (and watchers) never see half a file. For settings written on every change.
 */
export function writeFileAtomicSync(path: string, text: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true })
  const temp = tempPath(path)
  try {
    writeFileSync(temp, text)
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}
