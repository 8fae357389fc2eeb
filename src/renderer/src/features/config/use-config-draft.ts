import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react'
import { validateText } from '#shared/config/validate'
import type { DraftValidation, RawConfig, SaveResult } from '#shared/ipc/registry'
import type { Diagnostic } from '#shared/model/registry'
import { call } from '../../api'
import { useDebouncedValue } from '../../lib/use-debounced'
import { useConfigDirtyChanged } from '../../state/store'
import { draftReducer, initialDraftState, isDirty } from './draft-state'
import { configQueries, registryKeys } from './queries'

/** Diagnostics of one exact text, from main (layered files included) rather than the local check. */
interface ServerDiagnostics {
  text: string
  diagnostics: Diagnostic[]
}

/**
 * The config editor's state: the file on disk, the draft, main's validation of the draft
 * (debounced), the best diagnostics for the draft right now, and saving.
 */
export function useConfigDraft() {
  const queryClient = useQueryClient()
  const raw = useQuery(configQueries.raw())
  const [state, dispatch] = useReducer(draftReducer, initialDraftState)
  const dirty = isDirty(state)

  // A new read of the file (after an event or on focus) is folded into the draft state.
  const [seenRaw, setSeenRaw] = useState<RawConfig | undefined>(undefined)
  if (raw.data && raw.data !== seenRaw) {
    setSeenRaw(raw.data)
    dispatch({ type: 'diskRead', raw: raw.data })
  }

  const configDirtyChanged = useConfigDirtyChanged()
  useEffect(() => configDirtyChanged(dirty), [dirty, configDirtyChanged])
  useEffect(() => () => configDirtyChanged(false), [configDirtyChanged])

  const debounced = useDebouncedValue(state.draft, 300)
  const validation = useQuery({
    ...configQueries.validate(debounced),
    enabled: state.base !== null,
    placeholderData: keepPreviousData,
  })
  const validationIsCurrent =
    validation.data !== undefined && !validation.isPlaceholderData && debounced === state.draft

  const path = state.base?.path ?? 'rag-mcp.json'
  const [saveDiagnostics, setSaveDiagnostics] = useState<ServerDiagnostics | null>(null)
  const serverDiagnostics: ServerDiagnostics | null =
    saveDiagnostics?.text === state.draft
      ? saveDiagnostics
      : validationIsCurrent
        ? { text: debounced, diagnostics: validation.data.diagnostics }
        : null

  const localDiagnostics = useMemo(
    () => validateText(path, state.draft).diagnostics,
    [path, state.draft],
  )
  const diagnostics = serverDiagnostics?.diagnostics ?? localDiagnostics

  // The linter reads through a ref, so the editor is built once.
  const lintSource = useRef({ path, server: serverDiagnostics })
  useEffect(() => {
    lintSource.current = { path, server: serverDiagnostics }
  })
  const diagnosticsFor = useCallback((text: string): Diagnostic[] => {
    const { path: file, server } = lintSource.current
    const all = server?.text === text ? server.diagnostics : validateText(file, text).diagnostics
    return all.filter((d) => d.file === file)
  }, [])

  const edited = useCallback((text: string) => dispatch({ type: 'edited', text }), [])

  /** Writes `text` over the version the draft started from (or over anything, with `force`). */
  const save = useCallback(
    async (text: string, force = false): Promise<SaveResult> => {
      if (!state.base) throw new Error('the file is not loaded yet')
      const result = await call('config:save', { text, baseHash: state.base.hash, force })
      if (result.status === 'saved') {
        dispatch({ type: 'saved', text, hash: result.hash, path: result.path })
        setSaveDiagnostics(null)
        await queryClient.invalidateQueries({ queryKey: registryKeys.all })
      } else if (result.status === 'invalid') {
        setSaveDiagnostics({ text, diagnostics: result.diagnostics })
      }
      return result
    },
    [state.base, queryClient],
  )

  return {
    raw,
    state,
    dirty,
    dispatch,
    edited,
    save,
    diagnostics,
    diagnosticsFor,
    /** Main's verdict on the draft, when it is for the current text. */
    validation: validationIsCurrent ? (validation.data as DraftValidation) : null,
    validating: !validationIsCurrent,
  }
}

export type ConfigDraft = ReturnType<typeof useConfigDraft>
