import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'

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
          closeSync(fd)
          fd = -1
          this.rotate()
          fd = openSync(this.path, 'a+')
          size = 0
          chunk = ''
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

  private rotate(): void {
    const { keep } = this.options
    rmSync(`${this.path}.${keep}`, { force: true })
    for (let i = keep - 1; i >= 1; i -= 1) {
      if (existsSync(`${this.path}.${i}`)) renameSync(`${this.path}.${i}`, `${this.path}.${i + 1}`)
    }
    renameSync(this.path, `${this.path}.1`)
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
