import type { Readable } from 'node:stream'

/** What a {@link LineReader} found at the end of a line it did not keep. */
export interface DroppedLine {
  /** Bytes of the line, the part read before it was dropped included. */
  bytes: number
  /** Its first and last bytes (up to {@link EDGE} each), as text: where a message keeps its id. */
  head: string
  tail: string
  /** `oversize`: longer than the limit; `discarded`: {@link LineReader.discard} was called. */
  why: 'oversize' | 'discarded'
}

export interface LineReaderOptions {
  /** Longest line kept, in bytes. */
  maxBytes: number
  /** Every line kept, without its line end. */
  onLine(line: string): void
  /**
   * A line over `maxBytes`, or discarded: called at its end. Without it, the first `maxBytes`
   * of an over-long line are passed to `onLine` instead (cut there) and the rest is dropped.
   */
  onDropped?(dropped: DroppedLine): void
}

/** How many bytes of each end of a dropped line are kept. */
const EDGE = 256

/**
 * Splits a byte stream into lines in time linear in its size: each chunk is searched for line
 * ends once, the parts of a line are kept as they came and joined once, at its end. A line is
 * never held beyond `maxBytes`: past that (or once {@link discard}ed) its bytes are counted,
 * not kept, until its end.
 */
export class LineReader {
  private parts: Buffer[] = []
  private size = 0
  private dropping: DroppedLine['why'] | undefined
  private head = Buffer.alloc(0)
  private tail: Buffer[] = []
  private tailSize = 0

  constructor(private readonly options: LineReaderOptions) {}

  /** Whether a line has begun and not ended. */
  get inLine(): boolean {
    return this.size > 0
  }

  /** The first bytes of the line being read (up to 256), as text. */
  lineHead(): string {
    if (this.dropping) return this.head.subarray(0, EDGE).toString('utf8')
    let count = 0
    for (let bytes = 0; count < this.parts.length && bytes < EDGE; count++) {
      bytes += this.parts[count]!.length
    }
    return Buffer.concat(this.parts.slice(0, count)).subarray(0, EDGE).toString('utf8')
  }

  push(chunk: Buffer): void {
    let start = 0
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, end))
      this.endLine()
      start = end + 1
    }
    if (start < chunk.length) this.take(chunk.subarray(start))
  }

  /** The stream ended: a last line without a line end counts. */
  end(): void {
    if (this.size > 0) this.endLine()
  }

  /** Drops what is kept of the line being read, and the rest of it as it arrives. */
  discard(): void {
    if (this.size === 0 || this.dropping) return
    this.startDropping('discarded')
  }

  private take(part: Buffer): void {
    if (part.length === 0) return
    this.size += part.length
    if (!this.dropping) {
      this.parts.push(part)
      if (this.size <= this.options.maxBytes) return
      this.startDropping('oversize')
      return
    }
    if (this.head.length < EDGE && this.options.onDropped) {
      this.head = Buffer.concat([this.head, part.subarray(0, EDGE - this.head.length)])
    }
    this.keepTail(part)
  }

  private startDropping(why: DroppedLine['why']): void {
    this.dropping = why
    const kept = Buffer.concat(this.parts)
    this.head = Buffer.from(kept.subarray(0, EDGE))
    if (why === 'oversize' && !this.options.onDropped) {
      this.head = Buffer.from(kept.subarray(0, this.options.maxBytes))
    }
    this.parts = []
    this.tail = []
    this.tailSize = 0
    this.keepTail(kept.subarray(Math.max(0, kept.length - EDGE)))
  }

  private keepTail(part: Buffer): void {
    this.tail.push(part)
    this.tailSize += part.length
    while (this.tail.length > 1 && this.tailSize - this.tail[0]!.length >= EDGE) {
      this.tailSize -= this.tail.shift()!.length
    }
  }

  private endLine(): void {
    const size = this.size
    const dropping = this.dropping
    if (!dropping) {
      let line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, size)
      if (line.at(-1) === 13) line = line.subarray(0, -1)
      this.reset()
      if (size > 0) this.options.onLine(line.toString('utf8'))
      return
    }
    const head = this.head
    const tail = Buffer.concat(this.tail)
    this.reset()
    const { onDropped } = this.options
    if (!onDropped) {
      if (dropping === 'oversize') this.options.onLine(head.toString('utf8'))
      return
    }
    onDropped({
      bytes: size,
      head: head.toString('utf8'),
      tail: tail.subarray(Math.max(0, tail.length - EDGE)).toString('utf8'),
      why: dropping,
    })
  }

  private reset(): void {
    this.parts = []
    this.size = 0
    this.dropping = undefined
    this.head = Buffer.alloc(0)
    this.tail = []
    this.tailSize = 0
  }
}

/** Feeds a stream to a {@link LineReader}. */
export function readLinesOf(stream: Readable, reader: LineReader): void {
  stream.on('data', (chunk: Buffer) => reader.push(chunk))
  stream.on('end', () => reader.end())
}
