import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import type { AccessTargetInput } from '#shared/ipc/rag'
import type { AccessCheck } from '#shared/model/rag'
import { call } from '../../api'
import { formatTime } from '../../lib/format'
import { useAccessHandoff, useCheckAllHandoff, useUiStore } from '../../state/store'
import { Badge, Banner, EmptyState, Select, TabPanel, Tabs } from '../../ui'
import { BatchForm } from './BatchForm'
import { CheckAllView } from './CheckAllView'
import { useCheckAs } from './CheckAsSelect'
import { CheckForm } from './CheckForm'
import { CheckHistory } from './CheckHistory'
import { takeAccessHandoff } from './handoff'
import { LinkPolicyForm } from './LinkPolicyForm'
import { accessKeys, accessQueries, type BatchSpec, type HistoryEntry } from './queries'
import { VerdictCard } from './VerdictCard'
import { draftFromTarget, EMPTY_DRAFT, targetParts, type TargetDraft } from './verdicts'
import './AccessPanel.css'

type View = 'check' | 'batches' | 'policy'

const NO_HISTORY: HistoryEntry[] = []
const NO_BATCHES: BatchSpec[] = []

/** The check the verdict card shows: from the history (`id`) or opened from a batch. */
interface Shown {
  id?: number | undefined
  target: AccessTargetInput
  check: AccessCheck
  profileId?: string | undefined
}

interface CheckRequest {
  target: AccessTargetInput
  refresh?: boolean
  profileId?: string | undefined
}

/**
 * Support's panel: does a citation still open, for this user, today? One check at a time
 * with its verdict and the recent checks, and batches handed over by Search or pasted.
 */
export function AccessPanel(): React.JSX.Element {
  const queryClient = useQueryClient()
  const history = useQuery(accessQueries.history()).data ?? NO_HISTORY
  const batches = useQuery(accessQueries.batches()).data ?? NO_BATCHES
  const [view, setView] = useState<View>('check')
  const [draft, setDraft] = useState<TargetDraft>(() =>
    history[0] ? draftFromTarget(history[0].target) : EMPTY_DRAFT,
  )
  const [picked, setPicked] = useState<Shown | null>(null)
  const [checkAsId, setCheckAsId] = useState<string | null>(null)
  const { profile: checkAs } = useCheckAs(checkAsId)
  const [batchId, setBatchId] = useState<string | null>(null)

  const check = useMutation({
    mutationFn: ({ target, refresh, profileId }: CheckRequest) =>
      call('access:check', { target, refresh, ...(profileId ? { profileId } : {}) }),
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

  const shown = picked ?? history[0] ?? null
  const currentBatch = batches.find((b) => b.batchId === batchId) ?? batches[0]
  const showFromBatch = useCallback(
    (found: AccessCheck, target: AccessTargetInput | undefined, profileId?: string) => {
      setPicked({ target: target ?? { ...targetParts(found) }, check: found, profileId })
      setView('check')
    },
    [],
  )

  return (
    <div className="access">
      <div className="access__head">
        <h1 tabIndex={-1}>Access</h1>
        <Tabs
          label="Access"
          idBase="access"
          selected={view}
          onSelect={setView}
          tabs={[
            { id: 'check', label: 'Check' },
            {
              id: 'batches',
              label: 'Check all',
              extra: batches.length > 0 ? <Badge tone="info">{batches.length}</Badge> : null,
            },
            { id: 'policy', label: 'Link policy' },
          ]}
        />
      </div>
      <TabPanel idBase="access" id="check" selected={view === 'check'} className="access__tab">
        <CheckForm
          draft={draft}
          onDraftChange={setDraft}
          checkAs={checkAsId}
          onCheckAsChange={setCheckAsId}
          onCheck={(target, profileId) => mutate({ target, profileId })}
          busy={check.isPending && !check.variables.refresh}
        />
        {check.isError && (
          <Banner tone="bad" title="The check could not run">
            {check.error.message}
          </Banner>
        )}
        {shown ? (
          <VerdictCard
            check={shown.check}
            checkAs={checkAs}
            onCheckAgain={() =>
              mutate({ target: shown.target, refresh: true, profileId: shown.profileId })
            }
            checkingAgain={check.isPending && check.variables.refresh === true}
          />
        ) : (
          <EmptyState icon="access" title="Does this citation still open, for this user?">
            Paste the link a user clicked, or pick the server and enter the segment id of a hit;
            choose whom to check as and press Enter. The verdict says what the server and the
            document host answered, in plain words.
          </EmptyState>
        )}
        <CheckHistory
          entries={history}
          currentId={shown?.id}
          onShow={(entry) => {
            setPicked(entry)
            setDraft(draftFromTarget(entry.target))
            // The form shows whom that check was for, so “Check” repeats it as them.
            if (entry.profileId) setCheckAsId(entry.profileId)
          }}
        />
      </TabPanel>
      <TabPanel idBase="access" id="batches" selected={view === 'batches'} className="access__tab">
        <BatchForm onStarted={() => setBatchId(null)} />
        {currentBatch ? (
          <>
            {batches.length > 1 && (
              <Select
                label="Batch"
                inline
                value={currentBatch.batchId}
                onChange={setBatchId}
                options={batches.map((b) => ({
                  value: b.batchId,
                  label: `${formatTime(b.startedAt)} · ${b.label}`,
                }))}
                fieldClassName="access__batch-pick"
              />
            )}
            <CheckAllView
              key={currentBatch.batchId}
              batch={currentBatch}
              onShow={showFromBatch}
              onRecheck={setBatchId}
            />
          </>
        ) : (
          <EmptyState icon="layers" title="No batch yet">
            Paste links above, or use “Check all citations” on a search result: every citation is
            checked at once and the verdicts appear here with a count per class.
          </EmptyState>
        )}
      </TabPanel>
      <TabPanel idBase="access" id="policy" selected={view === 'policy'} className="access__tab">
        <LinkPolicyForm />
      </TabPanel>
    </div>
  )
}
