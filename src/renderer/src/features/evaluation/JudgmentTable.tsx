import type { EvalQuery, Grade } from '#shared/model/evaluation'
import { EmptyRow, IconButton, Select, Table } from '../../ui'
import { GRADE_LABELS } from './grades'

const GRADE_OPTIONS = ([0, 1, 2, 3] as const).map((grade) => ({
  value: String(grade),
  label: `${grade} ${GRADE_LABELS[grade]}`,
}))

export interface JudgmentTableProps {
  query: EvalQuery
  /** A judgment's new grade, or null to remove it. */
  onGrade: (docKey: string, grade: Grade | null) => void
}

/** A query's graded judgments, each with its grade to change and a button to remove it. */
export function JudgmentTable({ query, onGrade }: JudgmentTableProps): React.JSX.Element {
  return (
    <Table label={`Judgments of ${query.id}`} scroll className="eval-judgments eval-fixed">
      <thead>
        <tr>
          <th scope="col">Document</th>
          <th scope="col" className="eval-col--grade-select">
            Grade
          </th>
          <th scope="col" className="eval-col--remove">
            <span className="visually-hidden">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {query.judgments.length === 0 && (
          <EmptyRow colSpan={3}>Not judged yet: search this query and mark hits relevant.</EmptyRow>
        )}
        {query.judgments.map((j) => {
          const name = j.title || j.docKey
          return (
            <tr key={j.docKey}>
              <td className="eval-cell--text" title={j.docKey}>
                {name}
              </td>
              <td>
                <Select
                  label={<span className="visually-hidden">Grade of {name}</span>}
                  value={String(j.grade)}
                  options={GRADE_OPTIONS}
                  onChange={(value) => onGrade(j.docKey, Number(value) as Grade)}
                />
              </td>
              <td className="actions">
                <IconButton
                  icon="trash"
                  label={`Remove the judgment of ${name}`}
                  onClick={() => onGrade(j.docKey, null)}
                />
              </td>
            </tr>
          )
        })}
      </tbody>
    </Table>
  )
}
