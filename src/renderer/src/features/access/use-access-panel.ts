import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import type { AccessTargetInput } from '#shared/ipc/rag'
import type { AccessCheck } from '#shared/model/rag'
import { call } from '../../api'
import { useAccessHandoff, useCheckAllHandoff, useUiStore } from '../../state/store'
import {
  accessCheckRequest,
  currentBatch,
  shownCheck,
  shownFromBatch,
  type AccessView,
  type CheckRequest,
  type Shown,
} from './access-panel'
import { useCheckAs } from './CheckAsSelect'
import { takeAccessHandoff } from './handoff'
import { accessKeys, accessQueries, type BatchSpec, type HistoryEntry } from './queries'
import { draftFromTarget, EMPTY_DRAFT, type TargetDraft } from './verdicts'

const NO_HISTORY: HistoryEntry[] = []
const NO_BATCHES: BatchSpec[] = []

/**
 * What the Access panel reads and does: the history and the session's batches, the form's
 * draft and whom to check as, running a check, the verdict shown, the batch open, and what
 * other panels hand over (a citation to check, or a batch).
 */
export function useAccessPanel() {
  const queryClient = useQueryClient()
  const history = useQuery(accessQueries.history()).data ?? NO_HISTORY
  const batches = useQuery(accessQueries.batches()).data ?? NO_BATCHES
  const [view, setView] = useState<AccessView>('check')
  const [draft, setDraft] = useState<TargetDraft>(() =>
    history[0] ? draftFromTarget(history[0].target) : EMPTY_DRAFT,
  )
  const [picked, setPicked] = useState<Shown | null>(null)
  const [checkAsId, setCheckAsId] = useState<string | null>(null)
  const { profile: checkAs } = useCheckAs(checkAsId)
  const [batchId, setBatchId] = useState<string | null>(null)

  const check = useMutation({
    mutationFn: (request: CheckRequest) => call('access:check', accessCheckRequest(request)),
    // Main recorded the check in the history (its newest entry). The card shows the check as
    // it came back: the history keeps signed links without their signatures, so a fresh link
    // opens only from here.
    onSuccess: async (found, { target, profileId }) => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.history() })
      const newest = queryClient.getQueryData<HistoryEntry[]>(accessKeys.history())?.[0]
      setPicked({ id: newest?.id, target, check: found, profileId })
    },
  })
  const { mutate } = check

  // A handoff from another panel fills the form or opens the batches at once (UI state, set
  // while rendering); taking it, and checking, happen after the render.
  const single = useAccessHandoff()
  const batch = useCheckAllHandoff()
  const [seen, setSeen] = useState({ single: null as typeof single, batch: null as typeof batch })
  if (single && single !== seen.single) {
    setSeen({ ...seen, single })
    setDraft(draftFromTarget(single.target))
    setView('check')
  }
  if (batch && batch !== seen.batch) {
    setSeen({ ...seen, batch })
    setBatchId(null)
    setView('batches')
  }
  useEffect(() => {
    if (!single && !batch) return
    const taken = takeAccessHandoff(useUiStore, queryClient, Date.now())
    if (taken?.single) mutate({ target: taken.single.target })
  }, [single, batch, queryClient, mutate])

  const showFromBatch = useCallback(
    (found: AccessCheck, target: AccessTargetInput | undefined, profileId?: string) => {
      setPicked(shownFromBatch(found, target, profileId))
      setView('check')
    },
    [],
  )

  return {
    view,
    setView,
    history,
    draft,
    setDraft,
    checkAsId,
    setCheckAsId,
    checkAs,
    check,
    shown: shownCheck(picked, history),
    /** Shows a check of the history, in the form too, as whom it was checked. */
    showEntry: (entry: HistoryEntry): void => {
      setPicked(entry)
      setDraft(draftFromTarget(entry.target))
      // The form shows whom that check was for, so “Check” repeats it as them.
      if (entry.profileId) setCheckAsId(entry.profileId)
    },
    batches,
    currentBatch: currentBatch(batches, batchId),
    setBatchId,
    showFromBatch,
  }
}
