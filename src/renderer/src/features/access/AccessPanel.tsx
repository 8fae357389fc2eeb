import { Badge, Banner, EmptyState, Select, TabPanel, Tabs } from '../../ui'
import { batchOption } from './access-panel'
import { BatchForm } from './BatchForm'
import { CheckAllView } from './CheckAllView'
import { CheckForm } from './CheckForm'
import { CheckHistory } from './CheckHistory'
import { LinkPolicyForm } from './LinkPolicyForm'
import { useAccessPanel } from './use-access-panel'
import { VerdictCard } from './VerdictCard'
import './AccessPanel.css'

type AccessPanelState = ReturnType<typeof useAccessPanel>

/**
 * Support's panel: does a citation still open, for this user, today? One check at a time
 * with its verdict and the recent checks, and batches handed over by Search or pasted.
 */
export function AccessPanel(): React.JSX.Element {
  const panel = useAccessPanel()
  const { view, batches } = panel

  return (
    <div className="access">
      <div className="access__head">
        <h1 tabIndex={-1}>Access</h1>
        <Tabs
          label="Access"
          idBase="access"
          selected={view}
          onSelect={panel.setView}
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
        <CheckTab panel={panel} />
      </TabPanel>
      <TabPanel idBase="access" id="batches" selected={view === 'batches'} className="access__tab">
        <BatchesTab panel={panel} />
      </TabPanel>
      <TabPanel idBase="access" id="policy" selected={view === 'policy'} className="access__tab">
        <LinkPolicyForm />
      </TabPanel>
    </div>
  )
}

/** One check: the form, the verdict shown, and the recent checks. */
function CheckTab({ panel }: { panel: AccessPanelState }): React.JSX.Element {
  const { check, shown } = panel
  return (
    <>
      <CheckForm
        draft={panel.draft}
        onDraftChange={panel.setDraft}
        checkAs={panel.checkAsId}
        onCheckAsChange={panel.setCheckAsId}
        onCheck={(target, profileId) => check.mutate({ target, profileId })}
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
          checkAs={panel.checkAs}
          onCheckAgain={() =>
            check.mutate({ target: shown.target, refresh: true, profileId: shown.profileId })
          }
          checkingAgain={check.isPending && check.variables.refresh === true}
        />
      ) : (
        <EmptyState icon="access" title="Does this citation still open, for this user?">
          Paste the link a user clicked, or pick the server and enter the segment id of a hit;
          choose whom to check as and press Enter. The verdict says what the server and the document
          host answered, in plain words.
        </EmptyState>
      )}
      <CheckHistory entries={panel.history} currentId={shown?.id} onShow={panel.showEntry} />
    </>
  )
}

/** Many checks at once: links to paste, the session's batches and the one open. */
function BatchesTab({ panel }: { panel: AccessPanelState }): React.JSX.Element {
  const { batches, currentBatch } = panel
  return (
    <>
      <BatchForm onStarted={() => panel.setBatchId(null)} />
      {currentBatch ? (
        <>
          {batches.length > 1 && (
            <Select
              label="Batch"
              inline
              value={currentBatch.batchId}
              onChange={panel.setBatchId}
              options={batches.map(batchOption)}
              fieldClassName="access__batch-pick"
            />
          )}
          <CheckAllView
            key={currentBatch.batchId}
            batch={currentBatch}
            onShow={panel.showFromBatch}
            onRecheck={panel.setBatchId}
          />
        </>
      ) : (
        <EmptyState icon="layers" title="No batch yet">
          Paste links above, or use “Check all citations” on a search result: every citation is
          checked at once and the verdicts appear here with a count per class.
        </EmptyState>
      )}
    </>
  )
}
