import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import type { AccessCheck, LinkVerdict } from '#shared/model/rag'
import { subscribe } from '../../api'
import { batchRows, recheckedBatch, toggledVerdict } from './check-all'
import { useCheckAs } from './CheckAsSelect'
import { newBatchId } from './handoff'
import { accessQueries, recordBatch, type BatchSpec } from './queries'
import { filterChecks, verdictCounts } from './verdicts'

/**
 * A batch of citations being checked: its run (`access:check-all`) and the checks arriving
 * while it runs, the verdict and text filters on its rows, and checking it again as another
 * profile (a new batch; `onRecheck` opens it).
 */
export function useCheckAll(batch: BatchSpec, onRecheck: (batchId: string) => void) {
  const queryClient = useQueryClient()
  const result = useQuery(accessQueries.batch(batch))
  const checkAs = useCheckAs(batch.profileId ?? null).profile
  const arrived = useArrivingChecks(batch.batchId, result.isPending)
  const [verdicts, setVerdicts] = useState<ReadonlySet<LinkVerdict>>(new Set())
  const [text, setText] = useState('')

  const rows = useMemo(
    () => batchRows(result.data?.checks, arrived, batch.targets),
    [result.data, arrived, batch.targets],
  )
  const shown = useMemo(() => filterChecks(rows, verdicts, text), [rows, verdicts, text])

  return {
    result,
    arrived: arrived.length,
    rows,
    shown,
    counts: verdictCounts(rows.map((row) => row.check)),
    verdicts,
    toggle: (verdict: LinkVerdict): void => setVerdicts(toggledVerdict(verdicts, verdict)),
    text,
    setText,
    filtered: verdicts.size > 0 || text !== '',
    clearFilters: (): void => {
      setVerdicts(new Set())
      setText('')
    },
    recheckAs: (profileId: string): void => {
      if (profileId === checkAs?.id) return
      const now = Date.now()
      const again = recheckedBatch(batch, profileId, newBatchId(now), now)
      recordBatch(queryClient, again)
      onRecheck(again.batchId)
    },
  }
}

/** Checks of a running batch, in the order they finish (from `access:progress`). */
function useArrivingChecks(batchId: string, running: boolean): AccessCheck[] {
  const [arrived, setArrived] = useState<{ batchId: string; checks: AccessCheck[] }>({
    batchId,
    checks: [],
  })
  useEffect(() => {
    if (!running) return
    return subscribe('access:progress', (event) => {
      if (event.batchId !== batchId) return
      setArrived((before) => ({
        batchId,
        checks: before.batchId === batchId ? [...before.checks, event.check] : [event.check],
      }))
    })
  }, [batchId, running])
  return arrived.batchId === batchId ? arrived.checks : []
}
