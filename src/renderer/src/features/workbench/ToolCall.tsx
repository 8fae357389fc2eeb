import type { ToolInfo } from '#shared/model/server'
import { Banner, Button, TabPanel, Tabs, TextField } from '../../ui'
import { CodeEditor } from '../config/editor/CodeEditor'
import { CallResult } from './CallResult'
import { CopyCall } from './CopyCall'
import { MapSearch } from './MapSearch'
import { SchemaForm } from './SchemaForm'
import { useToolCall } from './use-tool-call'

const MODES = [
  { id: 'form', label: 'Form' },
  { id: 'json', label: 'JSON' },
] as const

export interface ToolCallProps {
  server: string
  tool: ToolInfo
  /** Arguments to start from (a saved request, a call from the history). */
  initial?: Record<string, unknown>
  /** Call with `initial` as soon as the form is shown (a replay from the history). */
  runAtOnce?: boolean
  /** Root properties the console fills in itself (rag-tools-v1: `username`). */
  filled?: readonly string[]
}

/** Calls one tool: a form from its input schema (or JSON), a timeout, cancel, the result. */
export function ToolCall({ server, tool, initial, runAtOnce = false, filled = [] }: ToolCallProps) {
  const calling = useToolCall(server, tool, initial, runAtOnce, filled)
  const { mode, problems, failed, done } = calling
  const idBase = `wb-mode-${tool.name}`
  return (
    <section className="wb-call" aria-label={`Call ${tool.name}`}>
      <div className="wb-call__head">
        <h2>{tool.name}</h2>
        {tool.description && <p className="muted wb-call__desc">{tool.description}</p>}
      </div>
      {filled.length > 0 && (
        <p className="muted">
          Set by the console as the acting user: <code>{filled.join(', ')}</code>.
        </p>
      )}
      <Tabs
        label="Arguments as"
        idBase={idBase}
        tabs={MODES}
        selected={mode}
        onSelect={calling.switchMode}
      />
      <TabPanel idBase={idBase} id="form" selected={mode === 'form'} className="wb-form">
        <SchemaForm
          form={calling.form}
          draft={calling.draft}
          onChange={calling.editDraft}
          problems={problems}
        />
      </TabPanel>
      <TabPanel idBase={idBase} id="json" selected={mode === 'json'} className="wb-json">
        <CodeEditor
          className="wb-json__editor"
          value={calling.jsonText}
          revision={calling.revision}
          onChange={calling.editJson}
          extensions={calling.extensions}
          label={`Arguments of ${tool.name} (JSON)`}
        />
      </TabPanel>
      {problems.length > 0 && (
        <Banner tone="bad" title="The arguments do not fit the tool's input schema">
          <ul className="wb-problems">
            {problems.map((p, i) => (
              <li key={i}>
                <code>{p.path || '(arguments)'}</code> {p.message}
              </li>
            ))}
          </ul>
        </Banner>
      )}
      <div className="wb-call__actions">
        <TextField
          label="Timeout (ms)"
          inline
          placeholder="server's"
          inputMode="numeric"
          value={calling.timeout}
          error={calling.timeoutError}
          onChange={(event) => calling.setTimeoutText(event.target.value)}
          fieldClassName="wb-call__timeout"
        />
        <Button variant="primary" icon="play" busy={calling.running} onClick={calling.send}>
          Call {tool.name}
        </Button>
        <Button icon="check" busy={calling.checking} onClick={calling.checkArguments}>
          Check arguments
        </Button>
        {calling.valid && (
          <span className="wb-call__valid" role="status">
            The arguments fit the schema.
          </span>
        )}
        {calling.running && (
          <Button icon="close" onClick={calling.cancel}>
            Cancel
          </Button>
        )}
        <CopyCall server={server} tool={tool.name} current={calling.current} />
      </div>
      {failed && failed.problems.length === 0 && (
        <Banner tone="bad" title={`The call to ${tool.name} failed`}>
          {failed.message}
        </Banner>
      )}
      {done && <CallResult result={done.result} />}
      {done && (
        <MapSearch key={done.result.callId} server={server} result={done.result} args={done.args} />
      )}
    </section>
  )
}
