/**
 * Shortens a long path for one line by cutting its middle, keeping the file name and its
 * folder: `/home/ana/…/config/overrides/rag-mcp.json`. Show the full path in a title.
 */
export function shortenPath(path: string, max = 64): string {
  if (path.length <= max) return path
  const separator = path.includes('\\') && !path.includes('/') ? '\\' : '/'
  const parts = path.split(separator)
  const tail = parts.slice(-2).join(separator)
  if (tail.length + 2 >= max) return `…${path.slice(path.length - max + 1)}`
  const room = max - tail.length - 2
  return `${path.slice(0, room)}…${separator}${tail}`
}

/** Local time of day, `14:03:27`. */
export function formatTime(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString(undefined, { hour12: false })
}

/** `2025-03-01 14:03:27` in local time, for tables. */
export function formatDateTime(epochMs: number): string {
  const date = new Date(epochMs)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${formatTime(epochMs)}`
}

/** `just now`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function formatAgo(epochMs: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - epochMs) / 1000))
  if (seconds < 45) return 'just now'
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.round(minutes / 60)
  if (hours < 36) return `${hours} h ago`
  return `${Math.round(hours / 24)} d ago`
}

/** `1 server`, `3 servers`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`
}

/** `a, b, c` — or `a, b, c and 4 more` past `max`. */
export function listNames(names: readonly string[], max = 3): string {
  if (names.length <= max) return names.join(', ')
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`
}
