import type { ServerEntry } from '#shared/config/schema'
import { inferTransport } from '#shared/config/normalize'
import type {
  ImportedServer,
  ImportPreview,
  ImportSource,
  SecretToMove,
} from '#shared/ipc/registry'

/**
 * How an imported server connects, in one line (`stdio: npx -y some-server`,
 * `sse: http://localhost:8000/sse`): the transport the console will use, inferred as it loads
 * the entry (`transport`, else `type`, else a command, else an `/sse` path).
 */
export function connectionLine(fields: Record<string, unknown>): string {
  const str = (value: unknown): string => (typeof value === 'string' ? value : '')
  const args = Array.isArray(fields.args) ? fields.args.map(str).join(' ') : ''
  const entry: ServerEntry = {}
  if (str(fields.transport)) entry.transport = fields.transport as ServerEntry['transport']
  if (str(fields.type)) entry.type = fields.type as ServerEntry['type']
  if (str(fields.url)) entry.url = str(fields.url)
  if (str(fields.command)) entry.command = str(fields.command)
  const transport = entry.url || entry.command || entry.transport ? inferTransport(entry) : '?'
  const target = str(fields.url) || [str(fields.command), args].filter(Boolean).join(' ')
  return `${transport}: ${target}`
}

/** A server whose entry has an error cannot be imported. */
export function hasErrors(server: ImportedServer): boolean {
  return server.diagnostics.some((d) => d.severity === 'error')
}

/** A server that cannot be picked: it has errors, or is already configured the same way. */
export function isBlocked(server: ImportedServer): boolean {
  return hasErrors(server) || server.status === 'unchanged'
}

/** The servers picked at first: every one that can be imported. */
export function importableIds(preview: ImportPreview): Set<string> {
  return new Set(preview.servers.filter((s) => !isBlocked(s)).map((s) => s.id))
}

/** The picked set with one server added or taken out (a new set; the old one stays). */
export function toggled(selected: ReadonlySet<string>, id: string, on: boolean): Set<string> {
  const next = new Set(selected)
  if (on) next.add(id)
  else next.delete(id)
  return next
}

/** The picked servers and the credentials that importing them moves to the keychain. */
export function pickedOf(
  preview: ImportPreview,
  selected: ReadonlySet<string>,
): { servers: ImportedServer[]; secrets: SecretToMove[] } {
  return {
    servers: preview.servers.filter((s) => selected.has(s.id)),
    secrets: preview.secretsToMove.filter((s) => selected.has(s.server)),
  }
}

/** The file picked in the Import tab: a found candidate (its path), another path, or an upload. */
export interface ImportChoice {
  /** A candidate's path, `other`, `upload`, or empty before anything is picked. */
  choice: string
  /** The path typed for `other`. */
  otherPath: string
  /** The file read for `upload`. */
  upload: { name: string; text: string } | null
}

/** What "Preview import" sends for the pick, or null while the pick is not complete yet. */
export function importSourceOf({ choice, otherPath, upload }: ImportChoice): ImportSource | null {
  if (choice === 'upload') return upload ? { text: upload.text, name: upload.name } : null
  if (choice === 'other') return otherPath.trim() ? { path: otherPath.trim() } : null
  return choice ? { path: choice } : null
}
