import { useState } from 'react'
import type { WorkbenchCallResult } from '#shared/ipc/workbench'
import {
  FIELD_ROLES,
  type FieldRole,
  type MappingPreview,
  type MappingProposal,
} from '#shared/model/mapping'
import type { Hit, ScoreOrder } from '#shared/model/rag'
import { plural } from '../../lib/format'
import { Badge, Banner, Button, Select, Spinner } from '../../ui'
import { SaveDialog } from '../config/SaveDialog'
import { HitList } from '../search/HitList'
import { hitKey } from '../search/hit-key'
import {
  fieldOptions,
  listDepth,
  NONE,
  ORDERS,
  previewRows,
  ROLE_LABELS,
  roleHint,
} from './map-search'
import { useMapEditor } from './use-map-editor'
import './MapSearch.css'

const NO_OVERLAP = new Map<string, readonly string[]>()

export interface MapSearchProps {
  server: string
  /** The call whose result is mapped. */
  result: WorkbenchCallResult
  /** The arguments it was called with. */
  args: Record<string, unknown>
}

/**
 * "Use as search": a generic search mapping made from a tool's real reply. The core proposes
 * the hit list and fields (guessed from their names); the admin changes what is wrong, sees the
 * hits as Search will show them, and saves the mapping into rag-mcp.json through the Config
 * save preview.
 */
export function MapSearch({ server, result, args }: MapSearchProps) {
  const [open, setOpen] = useState(false)
  if (result.isError) return null
  if (!open) {
    return (
      <div className="wb-map__start">
        <Button icon="search" onClick={() => setOpen(true)}>
          Use as search…
        </Button>
        <span className="muted">
          Make this tool the server’s search, mapped from the reply above.
        </span>
      </div>
    )
  }
  return <MapEditor server={server} result={result} args={args} onClose={() => setOpen(false)} />
}

function MapEditor({ server, result, args, onClose }: MapSearchProps & { onClose: () => void }) {
  const {
    proposal,
    tried,
    heading,
    pickField,
    pickHits,
    pickOrder,
    selected,
    setSelected,
    draft,
    closeDraft,
    outcome,
    drafting,
    review,
    save,
    saved,
  } = useMapEditor(server, result, args)
  if (!proposal.data) {
    return proposal.isError ? (
      <Banner tone="bad" title="Could not propose a mapping">
        {proposal.error.message}
      </Banner>
    ) : (
      <Spinner label="Reading the reply…" />
    )
  }
  const { proposal: proposed, preview } = proposal.data

  return (
    <section className="wb-map" aria-label={`Use ${result.tool} as search`}>
      <div className="wb-map__head">
        <h3 ref={heading} tabIndex={-1}>
          Use {result.tool} as search
        </h3>
        {proposal.isFetching && <Spinner label="Updating…" />}
        <Button icon="close" variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
      {proposed.problem && (
        <Banner tone="bad" title="This reply cannot be mapped">
          {proposed.problem}
        </Banner>
      )}
      <HitListChoice proposal={proposed} onPick={pickHits} />
      {!proposed.problem && (
        <FieldChoice proposal={proposed} onPick={pickField} onOrder={pickOrder} />
      )}
      <MappingNotes proposal={proposed} />
      {preview && <MapPreview preview={preview} selected={selected} onSelect={setSelected} />}
      <div className="wb-map__actions">
        <Button
          variant="primary"
          icon="save"
          busy={drafting}
          disabled={Boolean(proposed.problem) || tried}
          onClick={() => void review()}
        >
          Save as search mapping…
        </Button>
        {tried && (
          <span className="muted">
            This server is only being tried: add it to rag-mcp.json first, then map it.
          </span>
        )}
      </div>
      {outcome && (
        <Banner
          tone={outcome.tone}
          role="status"
          title={outcome.tone === 'ok' ? 'Saved' : 'Not saved'}
        >
          {outcome.text}
        </Banner>
      )}
      {draft && (
        <SaveDialog
          text={draft.text}
          base={draft.raw}
          disk={null}
          onSave={save}
          onClose={closeDraft}
          onOutcome={(saveResult) => void saved(saveResult)}
        />
      )}
    </section>
  )
}

/** The arguments each search sends, where errors are read, and what the admin should know. */
function MappingNotes({ proposal }: { proposal: MappingProposal }) {
  const mapping = proposal.mapping
  return (
    <>
      <p className="wb-map__args">
        Arguments sent on each search: <code>{JSON.stringify(mapping.arguments ?? {})}</code>
        {mapping.error !== undefined && (
          <>
            {' '}
            · the server’s errors are read at <code>{mapping.error}</code>
          </>
        )}
      </p>
      {proposal.notes.length > 0 && (
        <ul className="wb-map__notes">
          {proposal.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </>
  )
}

/** A select per hit field, and how the score runs once one is mapped. */
function FieldChoice({
  proposal,
  onPick,
  onOrder,
}: {
  proposal: MappingProposal
  onPick: (role: FieldRole, path: string) => void
  onOrder: (order: ScoreOrder) => void
}) {
  const mapping = proposal.mapping
  return (
    <fieldset className="wb-map__fields">
      <legend>Fields of one hit</legend>
      {FIELD_ROLES.map((role) => (
        <div key={role} className="wb-map__field">
          <Select
            label={
              <>
                {ROLE_LABELS[role].label}
                {proposal.roles[role] === 'guessed' && (
                  <span aria-hidden="true" className="wb-map__guessed">
                    <Badge tone="info">guessed</Badge>
                  </span>
                )}
              </>
            }
            hint={roleHint(role, proposal)}
            value={mapping.fields?.[role] ?? NONE}
            options={fieldOptions(proposal.fields)}
            onChange={(path) => onPick(role, path)}
          />
        </div>
      ))}
      {mapping.fields?.score !== undefined && (
        <div className="wb-map__field">
          <Select
            label="Score runs"
            value={mapping.scoreOrder ?? 'higher-is-better'}
            options={ORDERS}
            onChange={onOrder}
          />
        </div>
      )}
    </fieldset>
  )
}

/** The hits the mapping makes of the reply, as Search will show them. */
function MapPreview({
  preview,
  selected,
  onSelect,
}: {
  preview: MappingPreview
  selected: string | null
  onSelect: (key: string) => void
}) {
  return (
    <section
      aria-label="Hits through this mapping"
      className="wb-map__preview"
      style={{ '--wb-map-rows': previewRows(preview.hits.length) } as React.CSSProperties}
    >
      <h4>
        As Search will show them: {plural(preview.count, 'hit')}
        {preview.count > preview.hits.length ? ` (first ${preview.hits.length})` : ''}
      </h4>
      {preview.violations.length > 0 && (
        <Banner tone="warn" role="none" title={plural(preview.violations.length, 'problem')}>
          <ul>
            {preview.violations.slice(0, 5).map((v, i) => (
              <li key={i}>
                <code>{v.path}</code> {v.message}
              </li>
            ))}
          </ul>
        </Banner>
      )}
      <HitList
        label="Hits through this mapping"
        hits={preview.hits}
        overlap={NO_OVERLAP}
        selectedKey={selected}
        onSelect={(hit: Hit) => onSelect(hitKey(hit))}
        showServer={false}
        className="wb-map__hits"
        empty="The mapping finds no hits in this reply."
      />
    </section>
  )
}

/** The lists of objects in the reply, one to pick as the hits. */
function HitListChoice({
  proposal,
  onPick,
}: {
  proposal: MappingProposal
  onPick: (hits: string) => void
}) {
  if (proposal.candidates.length === 0) return null
  const chosen = proposal.mapping.hits
  return (
    <fieldset className="wb-map__lists">
      <legend>
        Hit list in <code>{proposal.root || 'the result'}</code>
      </legend>
      {proposal.candidates.map((candidate) => {
        const depth = listDepth(candidate.path)
        return (
          <label key={candidate.path} className="wb-map__list" style={{ paddingLeft: depth * 16 }}>
            <input
              type="radio"
              name="wb-map-hits"
              checked={candidate.path === chosen}
              onChange={() => onPick(candidate.path)}
            />
            <code>{candidate.path === '' ? '(the reply itself)' : candidate.path}</code>
            <span className="muted">
              {plural(candidate.items, 'item')}: {candidate.keys.join(', ')}
            </span>
          </label>
        )
      })}
    </fieldset>
  )
}
