import { forceLinting } from '@codemirror/lint'
import { useMutation } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import type { SaveResult } from '#shared/ipc/registry'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import type { Comparison } from './CompareDialog'
import type { CodeEditorHandle } from './editor/CodeEditor'
import { configEditorExtensions } from './editor/extensions'
import {
  DISK_TAKEN,
  diskVersion,
  externalComparison,
  isSaveShortcut,
  reloadNotice,
  saveOutcome,
  worthSaving,
} from './save-flow'
import { useConfigDraft } from './use-config-draft'

/**
 * The config editor tab's flow around the draft: Ctrl/⌘+S and the save dialog, main's verdict
 * shown inline, reload, and comparing with the disk's version after a conflict or an outside edit.
 */
export function useEditorTab(
  /** The CodeMirror editor. */
  editorRef: RefObject<CodeEditorHandle | null>,
  /** The tab's element: Ctrl/⌘+S anywhere in it opens the save dialog. */
  containerRef: RefObject<HTMLDivElement | null>,
) {
  const draft = useConfigDraft()
  const notify = useNoticePosted()
  // The text the save dialog is open for.
  const [saving, setSaving] = useState<string | null>(null)
  const [comparison, setComparison] = useState<Comparison | null>(null)
  const { state, diagnostics } = draft
  const base = state.base

  const openSave = useRef(() => {})
  useEffect(() => {
    openSave.current = () => {
      // The editor's own text: a key pressed right after an edit may beat React's render.
      const text = editorRef.current?.view()?.state.doc.toString() ?? state.draft
      if (base && worthSaving(text, base)) setSaving(text)
    }
  })
  // Ctrl/⌘+S anywhere in the editor tab. A native listener: React does not see key events
  // from inside CodeMirror's shadow root.
  const loaded = base !== null
  useEffect(() => {
    const container = containerRef.current
    if (!container) return
    const onKeyDown = (event: KeyboardEvent): void => {
      if (isSaveShortcut(event)) {
        event.preventDefault()
        openSave.current()
      }
    }
    container.addEventListener('keydown', onKeyDown)
    return () => container.removeEventListener('keydown', onKeyDown)
  }, [loaded, containerRef])

  const extensions = useMemo(
    () => configEditorExtensions({ diagnosticsFor: draft.diagnosticsFor }),
    [draft.diagnosticsFor],
  )
  // Main's verdict arrived for the current text: show it inline now.
  useEffect(() => {
    const view = editorRef.current?.view()
    if (view) forceLinting(view)
  }, [diagnostics, editorRef])

  const reload = useMutation({
    mutationFn: () => call('registry:reload'),
    onSuccess: (result) => notify(reloadNotice(result)),
    onError: (error) => notify({ tone: 'bad', message: `Reload failed: ${error.message}` }),
  })

  const afterSave = (result: SaveResult): void => {
    setSaving(null)
    const outcome = saveOutcome(result)
    if ('notice' in outcome) notify(outcome.notice)
    else setComparison(outcome.conflict)
  }

  return {
    draft,
    extensions,
    saving,
    openSave: (): void => openSave.current(),
    closeSave: (): void => setSaving(null),
    afterSave,
    reload,
    comparison,
    closeComparison: (): void => setComparison(null),
    compareWithDisk: (): void => {
      if (state.diskAhead) setComparison(externalComparison(state.diskAhead, state.draft))
    },
    takeDisk: (): void => {
      if (!comparison || !base) return
      draft.dispatch({ type: 'diskTaken', raw: diskVersion(base, comparison) })
      setComparison(null)
      notify(DISK_TAKEN)
    },
    keepMine: async (): Promise<void> => {
      if (!comparison || !base) return
      if (comparison.kind === 'external') {
        draft.dispatch({ type: 'diskDismissed', raw: diskVersion(base, comparison) })
        setComparison(null)
        return
      }
      const result = await draft.save(comparison.mine, true)
      setComparison(null)
      afterSave(result)
    },
  }
}
