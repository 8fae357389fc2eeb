import { existsSync, readFileSync } from 'node:fs'
import type { ServerDoctorReport } from '#shared/model/doctor'
import { isRecord } from '../../dialects/shape'
import { writeFileAtomicSync } from '../../util/atomic-write'

/**
 * The last Doctor report of each server (`<dataDir>/doctor.json`), so a server card can show
 * it after a restart. Reports are written already redacted; an unreadable file starts empty.
 */
export class LastReports {
  private readonly reports: Map<string, ServerDoctorReport>

  /** `file` absent: kept in memory only. */
  constructor(private readonly file: string | undefined) {
    this.reports = new Map(Object.entries(this.load()))
  }

  list(server?: string): ServerDoctorReport[] {
    const all = [...this.reports.values()]
    return structuredClone(server === undefined ? all : all.filter((r) => r.server === server))
  }

  keep(reports: ServerDoctorReport[]): void {
    for (const report of reports) this.reports.set(report.server, report)
    if (!this.file) return
    const servers = Object.fromEntries(this.reports)
    writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, servers })}\n`)
  }

  private load(): Record<string, ServerDoctorReport> {
    if (!this.file || !existsSync(this.file)) return {}
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { servers?: unknown }
      if (!isRecord(parsed.servers)) return {}
      return Object.fromEntries(
        Object.entries(parsed.servers).filter(
          ([id, report]) =>
            isRecord(report) && report.server === id && Array.isArray(report.checks),
        ),
      ) as Record<string, ServerDoctorReport>
    } catch {
      return {}
    }
  }
}
