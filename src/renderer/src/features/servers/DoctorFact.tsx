import type { ServerDoctorReport } from '#shared/model/doctor'
import { formatDateTime } from '../../lib/format'
import { cx } from '../../ui'
import { describeResult, describeWhen, reportTone } from './doctor-view'
import './Doctor.css'

export interface DoctorCardProps {
  report: ServerDoctorReport | undefined
  running: boolean
  onRun: () => void
  onShow: () => void
}

/** The last Doctor result on a server card, with its time; opens the report. */
export function DoctorFact({
  server,
  doctor,
}: {
  server: string
  doctor: DoctorCardProps
}): React.JSX.Element {
  const { report, running } = doctor
  const tone = report ? reportTone(report) : 'neutral'
  return (
    <div>
      <dt>Doctor</dt>
      <dd>
        {running ? (
          'running…'
        ) : report ? (
          <button
            type="button"
            className={cx('doctor-fact', `doctor-fact--${tone}`)}
            title={`Run ${formatDateTime(Date.parse(report.at))} as ${report.user}`}
            aria-label={`Doctor report of ${server}: ${describeResult(report)} · ${describeWhen(report.at)}`}
            onClick={doctor.onShow}
          >
            {describeResult(report)} · {describeWhen(report.at)}
          </button>
        ) : (
          'not run'
        )}
      </dd>
    </div>
  )
}
