import type { GoldenSetSummary } from '#shared/model/evaluation'
import { call } from '../../api'
import { useEvaluationRunSelected, useNoticePosted } from '../../state/store'
import { Button } from '../../ui'
import { NOTICE_MS, skippedNotice } from './set-import'
import { useEvalAction } from './use-eval-action'
import { useTextFile } from './use-text-file'

/**
 * Reads a TREC run file (`qid Q0 doc rank score tag`) as a stored run of `set`, so a system
 * evaluated elsewhere is measured and compared like the console's own runs.
 */
export function ImportRunButton({ set }: { set: GoldenSetSummary }): React.JSX.Element {
  const { busy, act } = useEvalAction()
  const notify = useNoticePosted()
  const selectRun = useEvaluationRunSelected()
  const { choose, input } = useTextFile(
    '.run,.txt,.tsv,.trec,text/plain',
    (file) =>
      void act('import-run', `Could not import ${file.name} as a run.`, async () => {
        const imported = await call('eval:import-trec', {
          kind: 'run',
          text: file.text,
          setId: set.id,
        })
        if (imported.kind !== 'run') return
        selectRun(imported.run.id)
        if (imported.skipped > 0) {
          notify({
            tone: 'warn',
            ...skippedNotice(imported.skipped, file.name, imported.skippedLines),
            timeoutMs: NOTICE_MS,
          })
        }
      }),
    (message) => notify({ tone: 'bad', message }),
  )
  return (
    <>
      <Button icon="import" busy={busy === 'import-run'} onClick={choose}>
        Import TREC run…
      </Button>
      {input}
    </>
  )
}
