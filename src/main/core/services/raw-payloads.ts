import type { RawPayload } from '#shared/ipc/rag'
import type { Hit } from '#shared/model/rag'

/** Searches whose raw payloads are held; an older one is dropped when a new one begins. */
export const RAW_SEARCHES = 20
/** Characters of JSON held in all (about as many bytes): 50,000 hits of 1 KB fit twice. */
export const RAW_MAX_CHARS = 128 * 1024 * 1024

export interface RawLimits {
  searches: number
  maxChars: number
}

/** Which hit: its server, source and id (ids repeat across servers, and may across sources). */
export type HitRef = Pick<Hit, 'server' | 'id'> & { sourceId?: string | undefined }

const refKey = (hit: HitRef): string => `${hit.server}\u0000${hit.sourceId ?? ''}\u0000${hit.id}`

/**
 * The raw payloads of recent searches' hits, held in main so that results cross IPC without
 * them; the Hit inspector asks for the one it shows. Each is kept as its JSON text (measured,
 * and safe from later changes). Bounded: the last {@link RawLimits.searches} searches and
 * {@link RawLimits.maxChars} characters in all; the oldest search goes first, and a search too
 * large on its own keeps what fitted.
 */
export class RawPayloads {
  /** Search id → hit → JSON text (`undefined`: the hit had no raw payload). Oldest first. */
  private readonly held = new Map<string, Map<string, string | undefined>>()
  private readonly sizes = new Map<string, number>()
  private chars = 0

  constructor(
    private readonly limits: RawLimits = { searches: RAW_SEARCHES, maxChars: RAW_MAX_CHARS },
  ) {}

  /** Starts holding for a search (a reused id starts afresh), dropping the oldest beyond the limit. */
  begin(searchId: string): void {
    this.drop(searchId)
    this.held.set(searchId, new Map())
    this.sizes.set(searchId, 0)
    while (this.held.size > this.limits.searches) this.drop(this.oldest()!)
  }

  /** The hits without their raw payloads, which stay here under the search (as room allows). */
  hold(searchId: string, hits: readonly Hit[]): Hit[] {
    const payloads = this.held.get(searchId)
    return hits.map(({ raw, ...hit }) => {
      const key = refKey(hit)
      if (payloads && !payloads.has(key)) this.add(searchId, payloads, key, raw)
      return hit
    })
  }

  /** A hit's raw payload, or `held: false` when it is not (or no longer) held. */
  get(searchId: string, hit: HitRef): RawPayload {
    const payloads = this.held.get(searchId)
    const key = refKey(hit)
    if (!payloads?.has(key)) return { held: false }
    const text = payloads.get(key)
    return { held: true, raw: text === undefined ? undefined : JSON.parse(text) }
  }

  private add(
    searchId: string,
    payloads: Map<string, string | undefined>,
    key: string,
    raw: unknown,
  ): void {
    let text: string | undefined
    try {
      text = JSON.stringify(raw)
    } catch {
      return // A payload JSON cannot carry (a cycle) could not have crossed IPC either.
    }
    const size = key.length + (text?.length ?? 0)
    // Older searches make room first; the search itself never evicts its own hits.
    while (this.chars + size > this.limits.maxChars && this.oldest() !== searchId) {
      this.drop(this.oldest()!)
    }
    if (this.chars + size > this.limits.maxChars) return
    payloads.set(key, text)
    this.sizes.set(searchId, this.sizes.get(searchId)! + size)
    this.chars += size
  }

  private oldest(): string | undefined {
    return this.held.keys().next().value
  }

  private drop(searchId: string): void {
    this.chars -= this.sizes.get(searchId) ?? 0
    this.held.delete(searchId)
    this.sizes.delete(searchId)
  }
}
