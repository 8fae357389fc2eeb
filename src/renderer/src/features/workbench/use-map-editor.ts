import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { RawConfig, SaveResult } from '#shared/ipc/registry'
import type { WorkbenchCallResult } from '#shared/ipc/workbench'
import type { FieldRole, MappingChoice } from '#shared/model/mapping'
import type { ScoreOrder } from '#shared/model/rag'
import { call } from '../../api'
import { registryKeys } from '../config/queries'
import { serverKeys } from '../servers/queries'
import { saveOutcome, withField, withHits, type MapOutcome } from './map-search'
import { workbenchKeys, workbenchQueries } from './queries'

/**
 * The "Use as search" editor's state: the admin's choice, the core's proposal for it (the last
 * one stays shown while the next is read), the config draft under review and what saving it
 * came to.
 */
export function useMapEditor(
  server: string,
  result: WorkbenchCallResult,
  args: Record<string, unknown>,
) {
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
  const [outcome, setOutcome] = useState<MapOutcome | null>(null)
  const [drafting, setDrafting] = useState(false)
  // Opened below a long reply: bring it into view, its heading focused for screen readers.
  const heading = useRef<HTMLHeadingElement>(null)
  const shown = Boolean(proposal.data)
  useEffect(() => {
    if (!shown) return
    heading.current?.scrollIntoView({ block: 'start' })
    heading.current?.focus({ preventScroll: true })
  }, [shown])

  const mapping = proposal.data?.proposal.mapping

  const review = async (): Promise<void> => {
    if (!mapping) return
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

  /** Writes the reviewed config over the one it was drafted from (the dialog shows only then). */
  const save = (text: string): Promise<SaveResult> =>
    draft
      ? call('config:save', { text, baseHash: draft.raw.hash })
      : Promise.reject(new Error('No mapping is under review.'))

  const saved = async (saveResult: SaveResult): Promise<void> => {
    setDraft(null)
    setOutcome(saveOutcome(saveResult, server, result.tool))
    if (saveResult.status === 'saved') {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: registryKeys.all }),
        queryClient.invalidateQueries({ queryKey: serverKeys.all }),
      ])
    }
  }

  return {
    proposal,
    tried,
    heading,
    pickField: (role: FieldRole, path: string): void =>
      setChoice((old) => withField(old, role, path)),
    pickHits: (hits: string): void => setChoice((old) => withHits(old, hits)),
    pickOrder: (scoreOrder: ScoreOrder): void => setChoice((old) => ({ ...old, scoreOrder })),
    selected,
    setSelected,
    draft,
    closeDraft: (): void => setDraft(null),
    outcome,
    drafting,
    review,
    save,
    saved,
  }
}
