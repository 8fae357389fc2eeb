import { useRef } from 'react'
import type { DraftValidation, RawConfig } from '#shared/ipc/registry'
import { Banner, Button, Spinner } from '../../ui'
import { CompareDialog } from './CompareDialog'
import { EditorToolbar } from './EditorToolbar'
import { CodeEditor, type CodeEditorHandle } from './editor/CodeEditor'
import { ProblemsList } from './ProblemsList'
import { SaveDialog } from './SaveDialog'
import { notOnDisk } from './save-flow'
import { ServerDiff } from './ServerDiff'
import { useEditorTab } from './use-editor-tab'

/** The rag-mcp.json editor: toolbar, CodeMirror, problems, pending changes, save flow. */
export function EditorTab(): React.JSX.Element {
  const editorRef = useRef<CodeEditorHandle>(null)
  const containerRef = useRef<HTMLDivElement>(null)
  const tab = useEditorTab(editorRef, containerRef)
  const draft = tab.draft
  const { state, dirty, diagnostics } = draft
  const base = state.base

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

  return (
    <div className="config-editor" ref={containerRef}>
      <EditorToolbar
        path={base.path}
        dirty={dirty}
        notOnDisk={notOnDisk(base)}
        errors={errors}
        warnings={diagnostics.length - errors}
        checking={draft.validating && dirty}
        canSave={dirty || notOnDisk(base)}
        reloading={tab.reload.isPending}
        onSave={tab.openSave}
        onRevert={() => draft.dispatch({ type: 'reverted' })}
        onReload={() => tab.reload.mutate()}
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
          actions={<Button onClick={tab.compareWithDisk}>Compare…</Button>}
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
          extensions={tab.extensions}
          handleRef={editorRef}
        />
        <aside className="config-aside" aria-label="Problems and pending changes">
          <ProblemsList
            diagnostics={diagnostics}
            editorPath={base.path}
            checking={draft.validating && dirty}
            onSelect={(d) => editorRef.current?.goTo(d.line, d.column)}
          />
          <PendingChanges dirty={dirty} base={base} validation={draft.validation} />
        </aside>
      </div>
      <SaveDialog
        text={tab.saving}
        base={base}
        disk={state.diskAhead}
        onSave={(text) => draft.save(text)}
        onClose={tab.closeSave}
        onOutcome={tab.afterSave}
      />
      <CompareDialog
        comparison={tab.comparison}
        onClose={tab.closeComparison}
        onTakeDisk={tab.takeDisk}
        onKeepMine={tab.keepMine}
      />
    </div>
  )
}

interface PendingChangesProps {
  dirty: boolean
  base: RawConfig
  validation: DraftValidation | null
}

/** What saving the draft now would change, server by server. */
function PendingChanges({ dirty, base, validation }: PendingChangesProps): React.JSX.Element {
  return (
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
  )
}
