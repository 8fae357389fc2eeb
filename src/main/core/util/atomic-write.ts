import { randomBytes } from 'node:crypto'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { copyFile, mkdir, open, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** The backup kept beside a registry file: its previous content. */
export const backupPath = (path: string): string => `${path}.bak`

const tempPath = (path: string): string =>
  join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)

async function renameOver(temp: string, path: string): Promise<void> {
  try {
    await rename(temp, path)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
}

/**
 * Replaces a file's content atomically: a temp file in the same folder is written, flushed and
 * renamed over the target, so readers (and watchers) never see half a file. Folders are
 * created; the file's permissions are kept. With `backup`, the previous content is first
 * copied (atomically too) to `<file>.bak`.
 */
export async function writeFileAtomic(
  path: string,
  text: string,
  options: { backup?: boolean } = {},
): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const previous = await stat(path).catch(() => undefined)
  if (options.backup && previous?.isFile()) {
    const temp = tempPath(backupPath(path))
    await copyFile(path, temp)
    await renameOver(temp, backupPath(path))
  }
  const temp = tempPath(path)
  const handle = await open(temp, 'w', previous ? previous.mode & 0o777 : 0o644)
  try {
    await handle.writeFile(text, 'utf8')
    await handle.sync()
  } catch (error) {
    await handle.close()
    await unlink(temp).catch(() => undefined)
    throw error
  }
  await handle.close()
  await renameOver(temp, path)
}

/** The synchronous variant, for small files written on every change (settings). */
export function writeFileAtomicSync(path: string, text: string): void {
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
