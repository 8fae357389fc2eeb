import type { ServerEntry } from '#shared/config/schema'
import { inferTransport } from '#shared/config/normalize'

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
