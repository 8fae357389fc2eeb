import type { DoctorCheckResult, OfferedCall, ServerDoctorReport } from '#shared/model/doctor'
import { formatDateTime, plural } from '../../lib/format'
import { Badge, Banner, Button, CopyButton, Dialog, Spinner } from '../../ui'
import { downloadText } from '../audit/download'
import { JsonBlock } from '../search/JsonBlock'
import {
  CHECK_STATUSES,
  describeResult,
  doctorMarkdown,
  exportName,
  groupChecks,
  reportTone,
  type CheckGroup,
} from './doctor-view'
import './Doctor.css'

export interface DoctorDialogProps {
  /** The server whose report to show; null keeps the dialog closed. */
  server: string | null
  report: ServerDoctorReport | undefined
  running: boolean
  onRun: () => void
  /** Stops the run that still has to report on this server. */
  onCancel: () => void
  onClose: () => void
}

/**
 * A server's last Doctor report: its checks grouped by family or protocol, failures first,
 * each with its spec section and expandable evidence; exportable as JSON or Markdown.
 */
export function DoctorDialog({
  server,
  report,
  running,
  onRun,
  onCancel,
  onClose,
}: DoctorDialogProps): React.JSX.Element | null {
  if (!server) return null
  return (
    <Dialog
      open
      onClose={onClose}
      size="xl"
      title={`Doctor: ${server}`}
      description={
        report
          ? `${report.dialect ?? 'No family'} · run ${formatDateTime(Date.parse(report.at))} as ${report.user} · ${describeResult(report)}`
          : 'Checks whether the server keeps its family’s contract, as the acting profile.'
      }
      footer={
        <>
          {report && (
            <>
              <Button
                icon="upload"
                onClick={() =>
                  downloadText(
                    exportName(report, 'json'),
                    'application/json',
                    `${JSON.stringify(report, null, 2)}\n`,
                  )
                }
              >
                Export JSON
              </Button>
              <Button
                icon="upload"
                onClick={() =>
                  downloadText(exportName(report, 'md'), 'text/markdown', doctorMarkdown(report))
                }
              >
                Export Markdown
              </Button>
            </>
          )}
          {running ? (
            <Button icon="close" onClick={onCancel}>
              Cancel Doctor
            </Button>
          ) : (
            <Button icon="refresh" onClick={onRun}>
              {report ? 'Run again' : 'Run Doctor'}
            </Button>
          )}
          <Button variant="primary" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {running && (
        <Spinner
          label={`Running Doctor on ${server}: about a dozen read-only requests…`}
          className="doctor__running"
        />
      )}
      {!report ? (
        !running && <p className="muted">Doctor has not run on {server} yet.</p>
      ) : report.error ? (
        <Banner tone="bad" title={`Doctor could not check ${server}`}>
          {report.error.message}
        </Banner>
      ) : (
        <ReportBody report={report} />
      )}
    </Dialog>
  )
}

function ReportBody({ report }: { report: ServerDoctorReport }) {
  const groups = groupChecks(report)
  if (groups.length === 0) return <p className="muted">No checks ran.</p>
  return (
    <div className="doctor" aria-label={`Doctor report of ${report.server}`}>
      {reportTone(report) === 'ok' && (
        <Banner tone="ok" title={`${report.server} keeps its contract`}>
          Every check of the MCP protocol{report.dialect ? ` and the ${report.dialect} family` : ''}{' '}
          ended without a failure or a warning.
        </Banner>
      )}
      {groups.map((group) => (
        <Group key={group.id} group={group} />
      ))}
    </div>
  )
}

function Group({ group }: { group: CheckGroup }) {
  const passed = group.rest.filter((c) => c.status === 'pass').length
  const skipped = group.rest.length - passed
  return (
    <section className="doctor__group" aria-label={group.title}>
      <h3 className="doctor__group-title">{group.title}</h3>
      {group.attention.length > 0 && (
        <ol className="doctor__checks" aria-label={`Checks needing attention in ${group.title}`}>
          {group.attention.map((check) => (
            <CheckItem key={check.id} check={check} />
          ))}
        </ol>
      )}
      {group.rest.length > 0 && (
        <details className="doctor__rest">
          <summary>
            {[
              passed ? plural(passed, 'check') + ' passed' : '',
              skipped ? `${skipped} not applicable` : '',
            ]
              .filter(Boolean)
              .join(' · ')}
          </summary>
          <ol className="doctor__checks" aria-label={`Other checks in ${group.title}`}>
            {group.rest.map((check) => (
              <CheckItem key={check.id} check={check} />
            ))}
          </ol>
        </details>
      )}
    </section>
  )
}

function CheckItem({ check }: { check: DoctorCheckResult }) {
  const status = CHECK_STATUSES[check.status]
  const { evidence } = check
  return (
    <li className="doctor__check" aria-label={check.title}>
      <div className="doctor__check-head">
        <Badge tone={status.tone} dot>
          {status.label}
        </Badge>
        <span className="doctor__check-title">{check.title}</span>
        <code className="doctor__check-id">{check.id}</code>
        <span className="doctor__check-spec muted">{check.spec}</span>
      </div>
      <p className="doctor__found">{evidence.found}</p>
      {evidence.offered && <Offered offered={evidence.offered} />}
      <details className="doctor__evidence" open={check.status === 'fail'}>
        <summary>Evidence</summary>
        <dl className="doctor__facts">
          <dt>Expected</dt>
          <dd>{evidence.expected}</dd>
        </dl>
        {evidence.request !== undefined && <JsonBlock title="Request" value={evidence.request} />}
        {evidence.reply !== undefined && <JsonBlock title="Reply" value={evidence.reply} />}
      </details>
    </li>
  )
}

/** A trial call Doctor did not make (the tool may write): what it would send and how to send it. */
function Offered({ offered }: { offered: OfferedCall }) {
  return (
    <section className="doctor__offered" aria-label={`Offered, not made: ${offered.tool}`}>
      <div className="doctor__offered-head">
        <Badge tone="info">offered, not made</Badge>
        <span className="muted">{offered.reason}</span>
      </div>
      <div className="doctor__offered-command">
        <code>{offered.command}</code>
        <CopyButton text={offered.command} label={`Copy the command that calls ${offered.tool}`} />
      </div>
      <p className="muted doctor__offered-how">
        Or call <code>{offered.tool}</code> from Workbench → Tools with these arguments; check first
        what it does on this server.
      </p>
    </section>
  )
}
