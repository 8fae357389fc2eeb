import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * An append-only text file that rotates at a size limit: `name` → `name.1` → … → `name.<keep>`,
 * the oldest dropped. Appends are synchronous so a crash never loses a written line.
 */
export class RotatingFile {
  private size: number

  constructor(
    readonly path: string,
    private readonly options: { maxBytes: number; keep: number },
  ) {
    mkdirSync(dirname(path), { recursive: true })
    this.size = existsSync(path) ? statSync(path).size : 0
  }

  append(text: string): void {
    const bytes = Buffer.byteLength(text)
    if (this.size > 0 && this.size + bytes > this.options.maxBytes) this.rotate()
    appendFileSync(this.path, text)
    this.size += bytes
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
    this.size = 0
  }
}
