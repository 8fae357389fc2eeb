import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
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
    // The CLI and the app may append to the same file: trust the disk, not a counter.
    let size = existsSync(this.path) ? statSync(this.path).size : 0
    if (size > 0 && size + Buffer.byteLength(text) > this.options.maxBytes) {
      this.rotate()
      size = 0
    }
    appendFileSync(this.path, size > 0 && !endsWithNewline(this.path, size) ? `\n${text}` : text)
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

function endsWithNewline(path: string, size: number): boolean {
  const last = Buffer.alloc(1)
  const fd = openSync(path, 'r')
  try {
    readSync(fd, last, 0, 1, size - 1)
  } finally {
    closeSync(fd)
  }
  return last[0] === 0x0a
}
