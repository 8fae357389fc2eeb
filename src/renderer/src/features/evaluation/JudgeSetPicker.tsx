import { useQuery } from '@tanstack/react-query'
import { useJudgingSet, useJudgingSetSelected } from '../../state/store'
import { Select } from '../../ui'
import { evalQueries } from './queries'

const OFF = ''
const NEW = '\u0000new'

/**
 * Search's "Judge into" choice: off, a golden set, or a new one (`onNew`: the dialog lives
 * outside the search form, a form cannot hold another). With a set chosen every hit gets a
 * relevance control and the search's query becomes a query of the set.
 */
export function JudgeSetPicker({ onNew }: { onNew: () => void }): React.JSX.Element {
  const sets = useQuery(evalQueries.sets())
  const judging = useJudgingSet()
  const select = useJudgingSetSelected()
  const known = sets.data?.some((s) => s.id === judging) ?? false
  return (
    <Select
      label="Judge into"
      inline
      value={judging && known ? judging : OFF}
      title="Mark hits relevant (0–3) to build a golden set as you search"
      options={[
        { value: OFF, label: sets.isError ? 'Off (sets unavailable)' : 'Off' },
        ...(sets.data ?? []).map((s) => ({ value: s.id, label: s.name })),
        { value: NEW, label: 'New set…' },
      ]}
      onChange={(value) => {
        if (value === NEW) onNew()
        else select(value === OFF ? null : value)
      }}
      fieldClassName="judge-picker"
    />
  )
}
