import {
  existsSync,
  linkSync,
  lstatSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { mkdir, open, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { backupPath, tempPath, writeFileAtomicSync } from './atomic-write'
import { decodeLossless, encodeLossless } from './lossless-utf8'

/** The file as the caller last read it, before deciding to replace it. */
export interface ExpectedFile {
  exists: boolean
  text: string
}

/** What a guarded replace did. */
export type ReplaceOutcome =
  /** Written; `backup` holds the version it replaced (absent for a new file). */
  | { status: 'written'; target: string; backup?: string }
  /**
   * Someone else wrote the file while it was being replaced: it now holds their version
   * (`exists`, `text`) and the caller's text is not in it. `kept` is where a version that raced
   * the rename and could not be put back was kept.
   */
  | { status: 'raced'; target: string; exists: boolean; text: string; kept?: string }

/** Errors of file systems without hard links: fall back to check-then-rename. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'])
const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code

/** The file a path stands for: symlinks followed (also a dangling one, which a save creates). */
export function resolveWriteTarget(path: string): string {
  let current = resolve(path)
  for (let hops = 0; hops < 40; hops++) {
    let isLink: boolean
    try {
      isLink = lstatSync(current).isSymbolicLink()
    } catch (error) {
      if (code(error) === 'ENOENT') return current
      throw error
    }
    if (!isLink) return current
    current = resolve(dirname(current), readlinkSync(current))
  }
  throw Object.assign(new Error(`${path}: too many levels of symbolic links`), { code: 'ELOOP' })
}

/**
 * Replaces `path` (through symlinks: the link stays, its target is replaced) with `text`
 * (encoded by {@link encodeLossless}: bytes its reader kept undecoded are written back),
 * atomically and without losing a concurrent writer's version. The old file is held by a hard
 * link while the new one is renamed over it, so:
 * - a change since `expected` (content, or the file replaced) found just before the rename is
 *   `raced`, and nothing is written;
 * - an in-place write that lands in the old file during the rename is found right after it:
 *   their version is put back (`raced`), or kept as a numbered backup if the file changed again;
 * - otherwise the old file becomes `<target>.bak`.
 * A new file is created with `link`, which fails instead of overwriting one created meanwhile.
 */
export async function replaceGuarded(
  path: string,
  text: string,
  expected: ExpectedFile,
): Promise<ReplaceOutcome> {
  const target = resolveWriteTarget(path)
  await mkdir(dirname(target), { recursive: true })
  const temp = await writeTemp(target, text)
  try {
    return expected.exists ? await swap(target, temp, expected.text) : await create(target, temp)
  } finally {
    rmSync(temp, { force: true })
  }
}

async function writeTemp(target: string, text: string): Promise<string> {
  const previous = await stat(target).catch(() => undefined)
  const temp = tempPath(target)
  const handle = await open(temp, 'wx', previous ? previous.mode & 0o777 : 0o644)
  try {
    await handle.writeFile(encodeLossless(text))
    await handle.sync()
  } catch (error) {
    await handle.close()
    rmSync(temp, { force: true })
    throw error
  }
  await handle.close()
  return temp
}

async function create(target: string, temp: string): Promise<ReplaceOutcome> {
  try {
    linkSync(temp, target)
    return { status: 'written', target }
  } catch (error) {
    if (code(error) === 'EEXIST') return raced(target)
    if (!NO_HARD_LINKS.has(code(error) ?? '')) throw error
  }
  if (existsSync(target)) return raced(target)
  renameSync(temp, target)
  return { status: 'written', target }
}

async function swap(target: string, temp: string, expected: string): Promise<ReplaceOutcome> {
  const hold = tempPath(target)
  try {
    linkSync(target, hold)
  } catch (error) {
    if (code(error) === 'ENOENT') return raced(target)
    if (!NO_HARD_LINKS.has(code(error) ?? '')) throw error
    return swapWithoutLinks(target, temp, expected)
  }
  let holding = true
  try {
    // Synchronous from here to the rename: the window for an unnoticed writer stays tiny.
    if (!sameFile(target, hold) || readText(hold) !== expected) return raced(target)
    const mine = statSync(temp)
    renameSync(temp, target)
    if (readText(hold) === expected) {
      renameSync(hold, backupPath(target))
      holding = false
      return { status: 'written', target, backup: backupPath(target) }
    }
    // An in-place write raced the rename into the old file: wait for it to finish.
    await settled(hold)
    holding = false
    if (sameFile(target, mine)) {
      renameSync(hold, target)
      return raced(target)
    }
    const kept = numberedBackup(target)
    renameSync(hold, kept)
    return { ...(await raced(target)), kept }
  } finally {
    if (holding) rmSync(hold, { force: true })
  }
}

/** Without hard links only the check just before the rename guards against other writers. */
async function swapWithoutLinks(
  target: string,
  temp: string,
  expected: string,
): Promise<ReplaceOutcome> {
  const backup = backupPath(target)
  writeFileAtomicSync(backup, encodeLossless(expected))
  if (readNow(target).text !== expected) return raced(target)
  renameSync(temp, target)
  return { status: 'written', target, backup }
}

function sameFile(path: string, other: string | { ino: number; dev: number }): boolean {
  try {
    const a = statSync(path)
    const b = typeof other === 'string' ? statSync(other) : other
    return a.ino === b.ino && a.dev === b.dev
  } catch {
    return false
  }
}

/** The file's text once it has stopped changing (a writer may have truncated but not written). */
async function settled(path: string): Promise<{ exists: boolean; text: string }> {
  let last = readNow(path)
  for (let i = 0; i < 40; i++) {
    await new Promise((done) => setTimeout(done, 25))
    const next = readNow(path)
    if (next.exists === last.exists && next.text === last.text) return next
    last = next
  }
  return last
}

/** Texts are compared as {@link decodeLossless} reads them: bytes that are not UTF-8 count. */
const readText = (path: string): string => decodeLossless(readFileSync(path))

function readNow(path: string): { exists: boolean; text: string } {
  try {
    return { exists: true, text: readText(path) }
  } catch (error) {
    if (code(error) !== 'ENOENT') throw error
    return { exists: false, text: '' }
  }
}

async function raced(target: string): Promise<Extract<ReplaceOutcome, { status: 'raced' }>> {
  return { status: 'raced', target, ...(await settled(target)) }
}

/** `<target>.bak.1`, `.bak.2`, …: the first that is free. */
function numberedBackup(target: string): string {
  for (let n = 1; ; n++) {
    const candidate = `${backupPath(target)}.${n}`
    if (!existsSync(candidate)) return candidate
  }
}
