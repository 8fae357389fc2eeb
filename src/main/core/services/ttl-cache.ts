/**
 * A small map whose entries expire `ttlMs` after they were set; at most `maxEntries` are kept
 * (the oldest go first). Time comes from `now` so tests can move it.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The value and when it was stored, while fresh. */
  get(key: string): { value: V; at: number } | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (this.now() - entry.at >= this.ttlMs) {
      this.entries.delete(key)
      return undefined
    }
    return entry
  }

  set(key: string, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, { value, at: this.now() })
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string
      this.entries.delete(oldest)
    }
  }

  clear(): void {
    this.entries.clear()
  }
}
