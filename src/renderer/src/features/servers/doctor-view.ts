import type { CheckStatus, DoctorCheckResult, ServerDoctorReport } from '#shared/model/doctor'
import { formatDateTime, plural } from '../../lib/format'
import type { Tone } from '../../ui'

/** Words and tone of each check status, worst first. */
export const CHECK_STATUSES: Record<CheckStatus, { label: string; tone: Tone; rank: number }> = {
  fail: { label: 'failed', tone: 'bad', rank: 0 },
  warn: { label: 'warning', tone: 'warn', rank: 1 },
  pass: { label: 'passed', tone: 'ok', rank: 2 },
  not_applicable: { label: 'not applicable', tone: 'neutral', rank: 3 },
}

const byStatus = (a: DoctorCheckResult, b: DoctorCheckResult): number =>
  CHECK_STATUSES[a.status].rank - CHECK_STATUSES[b.status].rank

/** How many checks ended with each status. */
export function countChecks(report: ServerDoctorReport): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { fail: 0, warn: 0, pass: 0, not_applicable: 0 }
  for (const check of report.checks) counts[check.status]++
  return counts
}

/** The worst status of a report, or `error` when its checks could not run. */
export function reportTone(report: ServerDoctorReport): Tone {
  if (report.error) return 'bad'
  const counts = countChecks(report)
  if (counts.fail) return 'bad'
  if (counts.warn) return 'warn'
  return 'ok'
}

/** `2 failed, 1 warning`, `all 9 passed`, `8 passed, 1 not applicable`, or why none ran. */
export function describeResult(report: ServerDoctorReport): string {
  if (report.error) return 'could not run'
  const counts = countChecks(report)
  const parts = [
    counts.fail ? `${counts.fail} failed` : '',
    counts.warn ? plural(counts.warn, 'warning') : '',
  ].filter(Boolean)
  if (parts.length) return parts.join(', ')
  if (!counts.pass) return counts.not_applicable ? 'nothing applicable' : 'no checks ran'
  // "all N passed" only when N is every check listed.
  return counts.not_applicable
    ? `${counts.pass} passed, ${counts.not_applicable} not applicable`
    : `all ${counts.pass} passed`
}

/** `14:02 today`, `09:15 yesterday`, or the full local date and time for older runs. */
export function describeWhen(at: string, now = Date.now()): string {
  const then = new Date(at)
  const hhmm = then.toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  })
  const day = (date: Date): number =>
    new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()
  const days = Math.round((day(new Date(now)) - day(then)) / 86_400_000)
  if (days === 0) return `${hhmm} today`
  if (days === 1) return `${hhmm} yesterday`
  return formatDateTime(then.getTime()).slice(0, 16)
}

/** A family's (or the protocol's) checks, worst first. */
export interface CheckGroup {
  /** The id prefix: `protocol`, `ragbox`, … */
  id: string
  title: string
  /** Failures and warnings, shown open. */
  attention: DoctorCheckResult[]
  /** Passes and not-applicable checks, shown collapsed. */
  rest: DoctorCheckResult[]
}

const groupTitle = (id: string): string =>
  id === 'protocol' ? 'MCP protocol (every server)' : `${id} family`

/**
 * The checks grouped by family or protocol (the part of the id before the dot), groups with
 * failures first, and in each group failures, then warnings, then the rest.
 */
export function groupChecks(report: ServerDoctorReport): CheckGroup[] {
  const groups = new Map<string, DoctorCheckResult[]>()
  for (const check of report.checks) {
    const id = check.id.includes('.') ? check.id.slice(0, check.id.indexOf('.')) : check.id
    groups.set(id, [...(groups.get(id) ?? []), check])
  }
  return [...groups]
    .map(([id, checks]) => {
      const sorted = [...checks].sort(byStatus)
      return {
        id,
        title: groupTitle(id),
        attention: sorted.filter((c) => c.status === 'fail' || c.status === 'warn'),
        rest: sorted.filter((c) => c.status === 'pass' || c.status === 'not_applicable'),
      }
    })
    .sort((a, b) => worst(a) - worst(b))
}

const worst = (group: CheckGroup): number =>
  CHECK_STATUSES[(group.attention[0] ?? group.rest[0])?.status ?? 'not_applicable'].rank

const fence = (value: unknown): string[] => {
  const text = JSON.stringify(value, null, 2) ?? String(value)
  // A longer fence than any run of backticks inside keeps a reply from closing the block.
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const marks = '`'.repeat(longest + 1)
  return [`${marks}json`, text, marks]
}

/** One line of Markdown text: no line breaks, table pipes escaped. */
const inline = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|')

/** The report as Markdown: a summary table, then every check (worst first) with its evidence. */
export function doctorMarkdown(report: ServerDoctorReport): string {
  const lines = [
    `# Doctor report: ${report.server}`,
    '',
    `- Family: ${report.dialect ?? 'none detected'}`,
    `- Run at: ${report.at}, as ${report.user}`,
    `- Result: ${describeResult(report)}`,
  ]
  if (report.error) lines.push(`- Could not run: ${inline(report.error.message)}`)
  const groups = groupChecks(report)
  if (groups.length) {
    lines.push('', '| Status | Check | Spec |', '| --- | --- | --- |')
    for (const group of groups) {
      for (const check of [...group.attention, ...group.rest]) {
        lines.push(
          `| ${CHECK_STATUSES[check.status].label} | ${inline(check.title)} (\`${check.id}\`) | ${inline(check.spec)} |`,
        )
      }
    }
  }
  for (const group of groups) {
    lines.push('', `## ${group.title}`)
    for (const check of [...group.attention, ...group.rest]) {
      const { evidence } = check
      lines.push(
        '',
        `### ${CHECK_STATUSES[check.status].label}: ${inline(check.title)} (\`${check.id}\`)`,
        '',
        `- Spec: ${inline(check.spec)}`,
        `- Expected: ${inline(evidence.expected)}`,
        `- Found: ${inline(evidence.found)}`,
      )
      if (evidence.offered) {
        lines.push(
          `- Offered, not made: \`${evidence.offered.command}\` (${inline(evidence.offered.reason)})`,
        )
      }
      if (evidence.request !== undefined) lines.push('', 'Request:', '', ...fence(evidence.request))
      if (evidence.reply !== undefined) lines.push('', 'Reply:', '', ...fence(evidence.reply))
    }
  }
  return `${lines.join('\n')}\n`
}

/** A file name for an export: `doctor-<server>-<date>.<ext>`, safe on every file system. */
export function exportName(report: ServerDoctorReport, ext: 'json' | 'md'): string {
  const server = report.server.replace(/[^\w.-]+/g, '_')
  const at = report.at.slice(0, 19).replace(/[^\dT]/g, '')
  return `doctor-${server}-${at}.${ext}`
}
