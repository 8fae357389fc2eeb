import type { CheckStatus, ServerDoctorReport } from '#shared/model/doctor'
import type { CommandOptions } from '../command-table'
import { cliError, connectServers, withCore, type CliContext } from '../context'
import { EXIT, isUnreached, type ExitCode } from '../exit-codes'

const LABEL: Record<CheckStatus, string> = {
  pass: 'PASS',
  warn: 'WARN',
  fail: 'FAIL',
  not_applicable: 'N/A ',
}

/**
 * `doctor [--server ID]…`: does each server keep its family's contract? Runs Doctor's checks as
 * the acting user; exit 1 when any check fails (or a server could not be checked), 4 when there
 * was no server to check or none could be reached.
 */
export async function doctorCommand(
  ctx: CliContext,
  _words: string[],
  options: CommandOptions<'doctor'>,
): Promise<ExitCode> {
  return withCore(ctx, { demoKeys: true }, async (core) => {
    await connectServers(core, options.server)
    const run = await core.services.doctor.run(options.server ? { servers: options.server } : {})
    const servers = run.servers.map((report) => ({
      server: report.server,
      dialect: report.dialect,
      checks: report.checks.map(({ id, title, spec, status, evidence }) => ({
        id,
        title,
        spec,
        status,
        evidence,
      })),
      ...(report.error ? { error: cliError(core, report.error) } : {}),
    }))
    if (ctx.out.json) ctx.out.result({ servers })
    else ctx.out.text(run.servers.map(describe).join('\n\n'))
    return doctorExit(run.servers)
  })
}

function describe(report: ServerDoctorReport): string {
  const head = `${report.server} (${report.dialect ?? 'no dialect'}) as ${report.user}`
  if (report.error) return `${head}\n  could not be checked: ${report.error.message}`
  const lines = report.checks.map((check) => {
    const line = `  ${LABEL[check.status]}  ${check.id}  ${check.title}  [${check.spec}]`
    if (check.status === 'pass') return line
    const { expected, found, offered } = check.evidence
    const trial = offered ? `\n        offered, not made: ${offered.command}` : ''
    return `${line}\n        expected: ${expected}\n        found: ${found}${trial}`
  })
  const count = (status: CheckStatus) => report.checks.filter((c) => c.status === status).length
  const summary = `  ${count('pass')} passed, ${count('warn')} warned, ${count('fail')} failed, ${count('not_applicable')} not applicable`
  return [head, ...lines, summary].join('\n')
}

function doctorExit(reports: ServerDoctorReport[]): ExitCode {
  if (reports.every((report) => isUnreached(report.error))) {
    return EXIT.unreachable
  }
  const failed = reports.some(
    (report) => report.error || report.checks.some((check) => check.status === 'fail'),
  )
  return failed ? EXIT.failed : EXIT.ok
}
