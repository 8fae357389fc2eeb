import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { withFileLockSync } from './file-lock'

/**
 * An append-only text file that rotates at a size limit: `name` → `name.1` → … → `name.<keep>`,
 * the oldest dropped. Appends are synchronous so a crash never loses a written line, and each
 * starts on a fresh line: a line torn by a crash (or by another process writing the same file)
 * stays one unreadable line instead of swallowing the next one.
 */
export class RotatingFile {
  constructor(
    readonly path: string,
    private readonly options: { maxBytes: number; keep: number },
  ) {
    mkdirSync(dirname(path), { recursive: true })
  }

  append(text: string): void {
    this.appendAll([text])
  }

  /**
   * Appends several texts (each one or more whole lines) with as few writes as the size limit
   * allows: rotation still happens between texts, never inside one.
   */
  appendAll(texts: string[]): void {
    // The CLI and the app may append to the same file: trust the disk, not a counter. One
    // descriptor serves the size, the last byte and the write.
    let fd = openSync(this.path, 'a+')
    try {
      let size = fstatSync(fd).size
      // A torn last line is ended first; the size counts it from the next text on.
      let chunk = size > 0 && !endsWithNewline(fd, size) ? '\n' : ''
      let pending = false
      for (const text of texts) {
        const bytes = Buffer.byteLength(text)
        if (size > 0 && size + bytes > this.options.maxBytes) {
          if (pending) writeAll(fd, chunk)
          const full = fstatSync(fd).ino
          closeSync(fd)
          fd = -1
          this.rotate(full)
          fd = openSync(this.path, 'a+')
          // Another process may have rotated it and written to the new file already.
          size = fstatSync(fd).size
          chunk = size > 0 && !endsWithNewline(fd, size) ? '\n' : ''
          pending = false
        }
        size += bytes + (pending ? 0 : chunk.length)
        chunk += text
        pending = true
      }
      if (pending) writeAll(fd, chunk)
    } finally {
      if (fd !== -1) closeSync(fd)
    }
  }

  /** Current file first, then `.1`, `.2`, … (newest to oldest). */
  files(): string[] {
    const all = [this.path]
    for (let i = 1; i <= this.options.keep; i += 1) all.push(`${this.path}.${i}`)
    return all.filter((file) => existsSync(file))
  }

  /**
   * Shifts the files by one, unless another process already rotated the full file (`full`, its
   * inode) away. Processes sharing the file rotate one at a time (a lock beside it): two shifts
   * at once would rename one file over another and lose it.
   */
  private rotate(full: number): void {
    const { keep } = this.options
    withFileLockSync(
      `${this.path}.lock`,
      () => {
        if (inodeOf(this.path) !== full) return
        rmSync(`${this.path}.${keep}`, { force: true })
        for (let i = keep - 1; i >= 1; i -= 1) {
          if (existsSync(`${this.path}.${i}`)) {
            renameSync(`${this.path}.${i}`, `${this.path}.${i + 1}`)
          }
        }
        renameSync(this.path, `${this.path}.1`)
      },
      { staleMs: ROTATE_STALE_MS },
    )
  }
}

/** A rotation lock held longer than this was left by a hung process (a rotation takes ms). */
const ROTATE_STALE_MS = 10_000

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino
  } catch {
    return undefined
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text)
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done)
}

function endsWithNewline(fd: number, size: number): boolean {
  const last = Buffer.alloc(1)
  readSync(fd, last, 0, 1, size - 1)
  return last[0] === 0x0a
}
