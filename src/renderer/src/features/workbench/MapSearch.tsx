import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { RawConfig, SaveResult } from '#shared/ipc/registry'
import type { WorkbenchCallResult } from '#shared/ipc/workbench'
import {
  FIELD_ROLES,
  type FieldRole,
  type MappingChoice,
  type MappingProposal,
} from '#shared/model/mapping'
import type { Hit, ScoreOrder } from '#shared/model/rag'
import { call } from '../../api'
import { plural } from '../../lib/format'
import { Badge, Banner, Button, Select, Spinner } from '../../ui'
import { SaveDialog } from '../config/SaveDialog'
import { registryKeys } from '../config/queries'
import { HitList } from '../search/HitList'
import { hitKey } from '../search/hit-key'
import { serverKeys } from '../servers/queries'
import { workbenchKeys, workbenchQueries } from './queries'
import './MapSearch.css'

const ROLE_LABELS: Record<FieldRole, { label: string; hint: string }> = {
  id: { label: 'Id', hint: "the hit's own id; without one the link stands in" },
  title: { label: 'Title', hint: 'without one, the first sentence of the text' },
  text: { label: 'Text', hint: 'the passage or document text' },
  snippet: { label: 'Snippet', hint: 'a short excerpt shown under the title' },
  uri: { label: 'Link', hint: 'a URL, URI or file path' },
  score: { label: 'Score', hint: 'a number: similarity, relevance or distance' },
  sourceId: { label: 'Source', hint: 'shown as the hit’s source' },
}
const NONE = ''
const ORDERS: readonly { value: ScoreOrder; label: string }[] = [
  { value: 'higher-is-better', label: 'Higher is better (similarity)' },
  { value: 'lower-is-better', label: 'Lower is better (distance)' },
]
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
  const queryClient = useQueryClient()
  const [choice, setChoice] = useState<MappingChoice>({})
  const tried = useQuery(workbenchQueries.tried()).data?.some((t) => t.server === server) ?? false
  const proposal = useQuery({
    queryKey: [...workbenchKeys.all, 'map', server, result.callId, choice],
    queryFn: () =>
      call('workbench:map-propose', {
        server,
        tool: result.tool,
        arguments: args,
        result: result.result,
        choice,
      }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  })
  const [selected, setSelected] = useState<string | null>(null)
  const [draft, setDraft] = useState<{ raw: RawConfig; text: string } | null>(null)
  const [outcome, setOutcome] = useState<{ tone: 'ok' | 'bad' | 'warn'; text: string } | null>(null)
  const [drafting, setDrafting] = useState(false)
  // Opened below a long reply: bring it into view, its heading focused for screen readers.
  const heading = useRef<HTMLHeadingElement>(null)
  const shown = Boolean(proposal.data)
  useEffect(() => {
    if (!shown) return
    heading.current?.scrollIntoView({ block: 'start' })
    heading.current?.focus({ preventScroll: true })
  }, [shown])

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
  const mapping = proposed.mapping

  const pick = (role: FieldRole, path: string): void =>
    setChoice((old) => ({ ...old, fields: { ...old.fields, [role]: path === NONE ? null : path } }))

  const review = async (): Promise<void> => {
    setDrafting(true)
    setOutcome(null)
    try {
      setDraft(await call('workbench:map-draft', { server, mapping }))
    } catch (error) {
      setOutcome({ tone: 'bad', text: (error as Error).message })
    } finally {
      setDrafting(false)
    }
  }
  const saved = async (saveResult: SaveResult): Promise<void> => {
    setDraft(null)
    if (saveResult.status === 'saved') {
      setOutcome({
        tone: 'ok',
        text: `Saved to ${saveResult.path}: ${server} now searches through ${result.tool}. Try it in Search.`,
      })
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: registryKeys.all }),
        queryClient.invalidateQueries({ queryKey: serverKeys.all }),
      ])
    } else if (saveResult.status === 'conflict') {
      setOutcome({
        tone: 'warn',
        text: 'rag-mcp.json changed on disk meanwhile; nothing was saved. Save again to review the mapping against the new version.',
      })
    } else {
      setOutcome({
        tone: 'bad',
        text: `Not saved: the file would have ${plural(saveResult.diagnostics.length, 'problem')}; see Config.`,
      })
    }
  }

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
      <HitListChoice
        proposal={proposed}
        onPick={(hits) =>
          setChoice({ hits, ...(choice.scoreOrder ? { scoreOrder: choice.scoreOrder } : {}) })
        }
      />
      {!proposed.problem && (
        <fieldset className="wb-map__fields">
          <legend>Fields of one hit</legend>
          {FIELD_ROLES.map((role) => (
            <div key={role} className="wb-map__field">
              <Select
                label={
                  <>
                    {ROLE_LABELS[role].label}
                    {proposed.roles[role] === 'guessed' && (
                      <span aria-hidden="true" className="wb-map__guessed">
                        <Badge tone="info">guessed</Badge>
                      </span>
                    )}
                  </>
                }
                hint={
                  proposed.roles[role] === 'guessed'
                    ? `Guessed from its name: ${ROLE_LABELS[role].hint}`
                    : ROLE_LABELS[role].hint
                }
                value={mapping.fields?.[role] ?? NONE}
                options={[
                  { value: NONE, label: '(none)' },
                  ...proposed.fields.map((field) => ({
                    value: field.path,
                    label: `${field.path} — ${field.sample || field.kind}`,
                  })),
                ]}
                onChange={(path) => pick(role, path)}
              />
            </div>
          ))}
          {mapping.fields?.score !== undefined && (
            <div className="wb-map__field">
              <Select
                label="Score runs"
                value={mapping.scoreOrder ?? 'higher-is-better'}
                options={ORDERS}
                onChange={(scoreOrder) => setChoice((old) => ({ ...old, scoreOrder }))}
              />
            </div>
          )}
        </fieldset>
      )}
      <p className="wb-map__args">
        Arguments sent on each search: <code>{JSON.stringify(mapping.arguments ?? {})}</code>
        {mapping.error !== undefined && (
          <>
            {' '}
            · the server’s errors are read at <code>{mapping.error}</code>
          </>
        )}
      </p>
      {proposed.notes.length > 0 && (
        <ul className="wb-map__notes">
          {proposed.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {preview && (
        <section
          aria-label="Hits through this mapping"
          className="wb-map__preview"
          style={
            {
              '--wb-map-rows': Math.max(1, Math.min(preview.hits.length, 6)),
            } as React.CSSProperties
          }
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
            onSelect={(hit: Hit) => setSelected(hitKey(hit))}
            showServer={false}
            className="wb-map__hits"
            empty="The mapping finds no hits in this reply."
          />
        </section>
      )}
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
          onSave={(text) => call('config:save', { text, baseHash: draft.raw.hash })}
          onClose={() => setDraft(null)}
          onOutcome={(saveResult) => void saved(saveResult)}
        />
      )}
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
        const depth = candidate.path === '' ? 0 : candidate.path.split('.').length - 1
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
