import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync, renameSync } from 'node:fs'
import { z } from 'zod'
import type { SavedRequest, WorkbenchCall } from '#shared/ipc/workbench'
import type { Redactor } from '../secrets/types'
import { writeFileAtomicSync } from '../util/atomic-write'

const fileSchema = z.object({
  version: z.literal(1),
  requests: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      server: z.string(),
      tool: z.string(),
      arguments: z.record(z.string(), z.unknown()),
      savedAt: z.string(),
    }),
  ),
})

/** Saved requests kept at most (the oldest go first). */
const MAX_SAVED = 1000

/**
 * The workbench's saved tool calls (`<dataDir>/workbench/saved-requests.json`). Arguments pass
 * through the redactor before they are written, so a known secret or a credential-named field
 * is stored as `[redacted]`, never as its value. An unreadable file is kept aside.
 */
export class SavedRequests {
  private requests: SavedRequest[]

  constructor(
    private readonly file: string,
    private readonly redactor: Redactor,
    private readonly now: () => number = Date.now,
  ) {
    this.requests = this.load()
  }

  list(server?: string): SavedRequest[] {
    return structuredClone(
      server === undefined ? this.requests : this.requests.filter((r) => r.server === server),
    )
  }

  save(call: WorkbenchCall & { name: string }): SavedRequest {
    const request: SavedRequest = {
      id: randomUUID(),
      name: call.name,
      server: call.server,
      tool: call.tool,
      arguments: this.redactor.redact(call.arguments),
      savedAt: new Date(this.now()).toISOString(),
    }
    this.requests = [...this.requests, request].slice(-MAX_SAVED)
    this.write()
    return structuredClone(request)
  }

  delete(id: string): boolean {
    const before = this.requests.length
    this.requests = this.requests.filter((r) => r.id !== id)
    if (this.requests.length === before) return false
    this.write()
    return true
  }

  private write(): void {
    writeFileAtomicSync(
      this.file,
      `${JSON.stringify({ version: 1, requests: this.requests }, null, 2)}\n`,
    )
  }

  private load(): SavedRequest[] {
    if (!existsSync(this.file)) return []
    try {
      return fileSchema.parse(JSON.parse(readFileSync(this.file, 'utf8'))).requests
    } catch {
      renameSync(this.file, `${this.file}.unreadable-${this.now()}`)
      return []
    }
  }
}
