import { forceLinting } from '@codemirror/lint'
import { useMutation } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { RawConfig, SaveResult } from '../../../../shared/ipc/registry'
import { call } from '../../api'
import { plural } from '../../lib/format'
import { useNoticePosted } from '../../state/store'
import { Banner, Button, Spinner } from '../../ui'
import { describeDiff } from '../../app/core-events'
import { CompareDialog, type Comparison } from './CompareDialog'
import { EditorToolbar } from './EditorToolbar'
import { CodeEditor, type CodeEditorHandle } from './editor/CodeEditor'
import { configEditorExtensions } from './editor/extensions'
import { ProblemsList } from './ProblemsList'
import { SaveDialog } from './SaveDialog'
import { ServerDiff } from './ServerDiff'
import { useConfigDraft } from './use-config-draft'

/** The rag-mcp.json editor: toolbar, CodeMirror, problems, pending changes, save flow. */
export function EditorTab(): React.JSX.Element {
  const draft = useConfigDraft()
  const notify = useNoticePosted()
  const editorRef = useRef<CodeEditorHandle>(null)
  const [saving, setSaving] = useState<string | null>(null)
  const [comparison, setComparison] = useState<Comparison | null>(null)
  const { state, dirty, diagnostics } = draft
  const base = state.base

  const openSave = useRef(() => {})
  useEffect(() => {
    openSave.current = () => {
      // The editor's own text: a key pressed right after an edit may beat React's render.
      const text = editorRef.current?.view()?.state.doc.toString() ?? state.draft
      if (base && (text !== base.text || base.fromEmbedded || !base.exists)) setSaving(text)
    }
  })
  // Ctrl/⌘+S anywhere in the editor tab. A native listener: React does not see key events
  // from inside CodeMirror's shadow root.
  const containerRef = useRef<HTMLDivElement>(null)
  const loaded = base !== null
  useEffect(() => {
    const container = containerRef.current
    if (!container) return
    const onKeyDown = (event: KeyboardEvent): void => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault()
        openSave.current()
      }
    }
    container.addEventListener('keydown', onKeyDown)
    return () => container.removeEventListener('keydown', onKeyDown)
  }, [loaded])

  const extensions = useMemo(
    () => configEditorExtensions({ diagnosticsFor: draft.diagnosticsFor }),
    [draft.diagnosticsFor],
  )

  // Main's verdict arrived for the current text: show it inline now.
  useEffect(() => {
    const view = editorRef.current?.view()
    if (view) forceLinting(view)
  }, [diagnostics])

  const reload = useMutation({
    mutationFn: () => call('registry:reload'),
    onSuccess: ({ event, emitted }) => {
      if (event.outcome === 'invalid') {
        const errors = event.diagnostics?.filter((d) => d.severity === 'error').length ?? 0
        notify({
          tone: 'warn',
          message: `Reloaded: the file is still invalid (${plural(errors, 'error')}); the last good config keeps running.`,
        })
      } else {
        const what = event.diff ? describeDiff(event.diff) : ''
        notify({
          tone: 'ok',
          message: emitted && what ? `Reloaded: ${what}.` : 'Reloaded: nothing changed.',
        })
      }
    },
    onError: (error) => notify({ tone: 'bad', message: `Reload failed: ${error.message}` }),
  })

  const afterSave = (result: SaveResult): void => {
    setSaving(null)
    if (result.status === 'saved') {
      const what = result.reload.event.diff ? describeDiff(result.reload.event.diff) : ''
      notify({ tone: 'ok', message: `Saved ${result.path}${what ? `: ${what}` : ''}.` })
    } else if (result.status === 'invalid') {
      const errors = result.diagnostics.filter((d) => d.severity === 'error').length
      notify({
        tone: 'bad',
        message: `Not saved: ${plural(errors, 'error')} in the draft.`,
        detail: 'They are marked in the editor.',
      })
    } else {
      setComparison({
        kind: 'conflict',
        path: result.path,
        disk: result.diskText,
        diskHash: result.diskHash,
        diskExists: result.diskExists,
        mine: result.proposedText,
        keptAt: result.keptAt,
      })
    }
  }

  if (draft.raw.isError && !base) {
    return (
      <Banner
        tone="bad"
        title="Cannot read rag-mcp.json"
        actions={<Button onClick={() => void draft.raw.refetch()}>Try again</Button>}
      >
        {draft.raw.error.message}
      </Banner>
    )
  }
  if (!base) return <Spinner label="Reading rag-mcp.json…" className="config-loading" />

  const errors = diagnostics.filter((d) => d.severity === 'error').length
  const validation = draft.validation

  return (
    <div className="config-editor" ref={containerRef}>
      <EditorToolbar
        path={base.path}
        dirty={dirty}
        notOnDisk={base.fromEmbedded || !base.exists}
        errors={errors}
        warnings={diagnostics.length - errors}
        checking={draft.validating && dirty}
        canSave={dirty || base.fromEmbedded || !base.exists}
        reloading={reload.isPending}
        onSave={() => openSave.current()}
        onRevert={() => draft.dispatch({ type: 'reverted' })}
        onReload={() => reload.mutate()}
      />
      {base.fromEmbedded && (
        <Banner tone="info" title="This is the embedded demo registry">
          Saving creates <code>{base.path}</code>, which the console then runs instead.
        </Banner>
      )}
      {base.layeredOver.length > 0 && (
        <Banner tone="info" role="none">
          You are editing the overrides file; it is merged over{' '}
          {base.layeredOver.map((file) => (
            <code key={file}>{file}</code>
          ))}{' '}
          field by field per server id.
        </Banner>
      )}
      {state.diskAhead && (
        <Banner
          tone="warn"
          title="rag-mcp.json changed on disk while you were editing"
          actions={
            <>
              <Button
                onClick={() =>
                  state.diskAhead &&
                  setComparison({
                    kind: 'external',
                    path: state.diskAhead.path,
                    disk: state.diskAhead.text,
                    diskHash: state.diskAhead.hash,
                    diskExists: state.diskAhead.exists,
                    mine: state.draft,
                  })
                }
              >
                Compare…
              </Button>
            </>
          }
        >
          Your edits are kept. Compare the two versions to choose which one to keep.
        </Banner>
      )}
      <div className="config-editor__body">
        <CodeEditor
          className="config-editor__code"
          label="rag-mcp.json"
          value={state.draft}
          revision={state.revision}
          onChange={draft.edited}
          extensions={extensions}
          handleRef={editorRef}
        />
        <aside className="config-aside" aria-label="Problems and pending changes">
          <ProblemsList
            diagnostics={diagnostics}
            editorPath={base.path}
            checking={draft.validating && dirty}
            onSelect={(d) => editorRef.current?.goTo(d.line, d.column)}
          />
          <section className="pending" aria-label="Pending changes">
            <h2 className="config-aside__title">If saved now</h2>
            {!dirty && !base.fromEmbedded ? (
              <p className="muted">No unsaved changes.</p>
            ) : validation?.diff ? (
              <ServerDiff diff={validation.diff} maxUnchanged={4} />
            ) : validation && !validation.valid ? (
              <p className="muted">Fix the errors to see what saving would change.</p>
            ) : (
              <Spinner label="Checking…" />
            )}
          </section>
        </aside>
      </div>
      <SaveDialog
        text={saving}
        base={base}
        disk={state.diskAhead}
        onSave={(text) => draft.save(text)}
        onClose={() => setSaving(null)}
        onOutcome={afterSave}
      />
      <CompareDialog
        comparison={comparison}
        onClose={() => setComparison(null)}
        onTakeDisk={() => {
          if (!comparison) return
          draft.dispatch({ type: 'diskTaken', raw: diskVersion(base, comparison) })
          setComparison(null)
          notify({
            tone: 'info',
            message:
              'Loaded the version on disk; your edits were dropped (Ctrl+Z brings them back).',
          })
        }}
        onKeepMine={async () => {
          if (!comparison) return
          if (comparison.kind === 'external') {
            draft.dispatch({ type: 'diskDismissed', raw: diskVersion(base, comparison) })
            setComparison(null)
            return
          }
          const result = await draft.save(comparison.mine, true)
          setComparison(null)
          afterSave(result)
        }}
      />
    </div>
  )
}

/** The disk side of a comparison as a file read, for the draft state. */
function diskVersion(base: RawConfig, comparison: Comparison): RawConfig {
  return {
    ...base,
    path: comparison.path,
    text: comparison.disk,
    hash: comparison.diskHash,
    exists: comparison.diskExists,
    fromEmbedded: false,
  }
}
