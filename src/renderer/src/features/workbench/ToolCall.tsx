import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import { ConsoleError } from '../../../../shared/errors'
import type { ArgumentProblem, WorkbenchCallResult } from '../../../../shared/ipc/workbench'
import type { ToolInfo } from '../../../../shared/model/server'
import { call } from '../../api'
import { useSessionData } from '../../lib/use-session-data'
import { toolFormKey, useWorkbenchForm, useWorkbenchFormChanged } from '../../state/store'
import { Banner, Button, TabPanel, Tabs, TextField } from '../../ui'
import { CodeEditor } from '../config/editor/CodeEditor'
import { jsonEditorExtensions } from '../config/editor/extensions'
import type { JsonSchema } from '../config/editor/schema-completion'
import { CallResult } from './CallResult'
import { CopyCall } from './CopyCall'
import { MapSearch } from './MapSearch'
import { workbenchKeys } from './queries'
import { argumentsOf, draftOf, formOf, withoutFields, type Draft } from './schema-form'
import { SchemaForm } from './SchemaForm'

type Mode = 'form' | 'json'
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

/** A tool's last call from this form: its result (with the arguments sent), or why it failed. */
type LastCall =
  | { result: WorkbenchCallResult; args: Record<string, unknown>; error?: undefined }
  | { error: { message: string; problems: ArgumentProblem[] }; result?: undefined }

const problemsOf = (error: unknown): ArgumentProblem[] => {
  const problems = error instanceof ConsoleError ? error.details?.problems : undefined
  return Array.isArray(problems) ? (problems as ArgumentProblem[]) : []
}

/** Calls one tool: a form from its input schema (or JSON), a timeout, cancel, the result. */
export function ToolCall({ server, tool, initial, runAtOnce = false, filled = [] }: ToolCallProps) {
  const queryClient = useQueryClient()
  const form = useMemo(
    () => withoutFields(formOf(tool.inputSchema ?? { type: 'object' }), filled),
    [tool.inputSchema, filled],
  )
  // The form as left (switching tabs or panels unmounts it), unless a request is loaded.
  const formKey = toolFormKey(server, tool.name)
  const kept = useWorkbenchForm(formKey)
  const keep = useWorkbenchFormChanged()
  const start = initial ? undefined : kept
  const [mode, setMode] = useState<Mode>(start?.mode ?? 'form')
  const [draft, setDraft] = useState<Draft>(
    () => start?.draft ?? draftOf(form, initial ?? form.default),
  )
  const [jsonText, setJsonText] = useState(start?.jsonText ?? '')
  const [revision, setRevision] = useState(0)
  const [timeout, setTimeoutText] = useState(start?.timeout ?? '')
  useEffect(() => {
    keep(formKey, { mode, draft, jsonText, timeout })
  }, [keep, formKey, mode, draft, jsonText, timeout])
  // The last answer stays too: it is the call's result, not the form's.
  const [last, setLast] = useSessionData<LastCall>(workbenchKeys.lastCall(server, tool.name))
  const [localProblems, setLocalProblems] = useState<ArgumentProblem[]>([])
  const callId = useRef<string | null>(null)
  const extensions = useMemo(
    () => jsonEditorExtensions((tool.inputSchema ?? {}) as JsonSchema),
    [tool.inputSchema],
  )

  /** The arguments as entered, or null with the problems shown. */
  const current = (): Record<string, unknown> | null => {
    if (mode === 'form') {
      const { args, problems } = argumentsOf(form, draft)
      setLocalProblems(problems)
      return problems.length > 0 ? null : args
    }
    try {
      const parsed = JSON.parse(jsonText || '{}') as unknown
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new Error('the arguments must be a JSON object')
      }
      setLocalProblems([])
      return parsed as Record<string, unknown>
    } catch (error) {
      setLocalProblems([{ path: '', message: (error as Error).message }])
      return null
    }
  }

  const switchMode = (next: Mode): void => {
    if (next === mode) return
    if (next === 'json') {
      setJsonText(JSON.stringify(argumentsOf(form, draft).args, null, 2))
      setRevision((r) => r + 1)
    } else {
      try {
        setDraft(draftOf(form, JSON.parse(jsonText || '{}')))
      } catch {
        // Text that does not parse stays in the JSON tab; the form keeps what it had.
      }
    }
    setLocalProblems([])
    setMode(next)
  }

  const timeoutMs = timeout.trim() === '' ? undefined : Number(timeout)
  const timeoutError =
    timeoutMs !== undefined &&
    !(Number.isInteger(timeoutMs) && timeoutMs >= 100 && timeoutMs <= 600_000)
      ? 'A whole number of milliseconds from 100 to 600000'
      : undefined

  const running = useMutation({
    mutationFn: (args: Record<string, unknown>) => {
      const id = crypto.randomUUID()
      callId.current = id
      return call('workbench:call', {
        server,
        tool: tool.name,
        arguments: args,
        callId: id,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      })
    },
    onSuccess: (result, args) => setLast(() => ({ result, args })),
    onError: (error) =>
      setLast(() => ({ error: { message: error.message, problems: problemsOf(error) } })),
    onSettled: async () => {
      callId.current = null
      await queryClient.invalidateQueries({ queryKey: workbenchKeys.history(server) })
    },
  })

  const send = (): void => {
    const args = current()
    check.reset()
    if (args && !timeoutError) running.mutate(args)
  }
  // Asks the core, which knows the whole schema and what it adds (rag-tools-v1's username).
  const check = useMutation({
    mutationFn: (args: Record<string, unknown>) =>
      call('workbench:validate', { server, tool: tool.name, arguments: args }),
  })
  const cancel = (): void => {
    if (callId.current) void call('workbench:cancel', { callId: callId.current })
  }

  // A replay runs once, when the form it filled is first shown.
  const replayed = useRef(false)
  useEffect(() => {
    if (!runAtOnce || replayed.current) return
    replayed.current = true
    send()
  })

  const failed = running.isPending ? undefined : last?.error
  const problems = [...localProblems, ...(failed?.problems ?? []), ...(check.data?.problems ?? [])]
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
        onSelect={switchMode}
      />
      <TabPanel idBase={idBase} id="form" selected={mode === 'form'} className="wb-form">
        <SchemaForm
          form={form}
          draft={draft}
          onChange={(next) => {
            setDraft(next)
            check.reset()
          }}
          problems={problems}
        />
      </TabPanel>
      <TabPanel idBase={idBase} id="json" selected={mode === 'json'} className="wb-json">
        <CodeEditor
          className="wb-json__editor"
          value={jsonText}
          revision={revision}
          onChange={(text) => {
            setJsonText(text)
            check.reset()
          }}
          extensions={extensions}
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
          value={timeout}
          error={timeoutError}
          onChange={(event) => setTimeoutText(event.target.value)}
          fieldClassName="wb-call__timeout"
        />
        <Button variant="primary" icon="play" busy={running.isPending} onClick={send}>
          Call {tool.name}
        </Button>
        <Button
          icon="check"
          busy={check.isPending}
          onClick={() => {
            const args = current()
            if (args) check.mutate(args)
            else check.reset()
          }}
        >
          Check arguments
        </Button>
        {check.data?.valid && (
          <span className="wb-call__valid" role="status">
            The arguments fit the schema.
          </span>
        )}
        {running.isPending && (
          <Button icon="close" onClick={cancel}>
            Cancel
          </Button>
        )}
        <CopyCall server={server} tool={tool.name} current={current} />
      </div>
      {failed && failed.problems.length === 0 && (
        <Banner tone="bad" title={`The call to ${tool.name} failed`}>
          {failed.message}
        </Banner>
      )}
      {!running.isPending && last?.result && <CallResult result={last.result} />}
      {!running.isPending && last?.result && (
        <MapSearch key={last.result.callId} server={server} result={last.result} args={last.args} />
      )}
    </section>
  )
}
