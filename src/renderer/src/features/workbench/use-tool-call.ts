import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { ArgumentProblem } from '#shared/ipc/workbench'
import type { ToolInfo } from '#shared/model/server'
import { call } from '../../api'
import { useSessionData } from '../../lib/use-session-data'
import { toolFormKey, useWorkbenchForm, useWorkbenchFormChanged } from '../../state/store'
import { jsonEditorExtensions } from '../config/editor/extensions'
import type { JsonSchema } from '../config/editor/schema-completion'
import { workbenchKeys } from './queries'
import { argumentsOf, draftOf, formOf, withoutFields, type Draft } from './schema-form'
import {
  argumentsFromJson,
  callRequest,
  draftFromJson,
  jsonOf,
  problemsOf,
  timeoutOf,
  type LastCall,
  type Mode,
} from './tool-call'

/**
 * A tool's arguments as entered, in the form or as JSON, and the timeout. They are kept as left
 * (switching tabs or panels unmounts the form), unless a request is loaded (`initial`).
 */
function useToolArguments(
  server: string,
  tool: ToolInfo,
  initial: Record<string, unknown> | undefined,
  filled: readonly string[],
) {
  const form = useMemo(
    () => withoutFields(formOf(tool.inputSchema ?? { type: 'object' }), filled),
    [tool.inputSchema, filled],
  )
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
  const [localProblems, setLocalProblems] = useState<ArgumentProblem[]>([])

  /** The arguments as entered, or null with the problems shown. */
  const current = (): Record<string, unknown> | null => {
    if (mode === 'form') {
      const { args, problems } = argumentsOf(form, draft)
      setLocalProblems(problems)
      return problems.length > 0 ? null : args
    }
    const read = argumentsFromJson(jsonText)
    setLocalProblems('args' in read ? [] : [read.problem])
    return 'args' in read ? read.args : null
  }

  const switchMode = (next: Mode): void => {
    if (next === mode) return
    if (next === 'json') {
      setJsonText(jsonOf(form, draft))
      setRevision((r) => r + 1)
    } else {
      // Text that does not parse stays in the JSON tab; the form keeps what it had.
      const parsed = draftFromJson(form, jsonText)
      if (parsed) setDraft(parsed)
    }
    setLocalProblems([])
    setMode(next)
  }

  return {
    form,
    mode,
    switchMode,
    draft,
    setDraft,
    jsonText,
    setJsonText,
    /** Changes when the JSON tab's text is replaced from the form. */
    revision,
    timeout,
    setTimeoutText,
    localProblems,
    current,
  }
}

/** Calls one tool from its form: the arguments, a check, the call, cancel, the last result. */
export function useToolCall(
  server: string,
  tool: ToolInfo,
  initial: Record<string, unknown> | undefined,
  runAtOnce: boolean,
  filled: readonly string[],
) {
  const queryClient = useQueryClient()
  // Edits go through editDraft and editJson below, which also drop a check's verdict.
  const { setDraft, setJsonText, ...entered } = useToolArguments(server, tool, initial, filled)
  const { ms: timeoutMs, error: timeoutError } = timeoutOf(entered.timeout)
  // The last answer stays too: it is the call's result, not the form's.
  const [last, setLast] = useSessionData<LastCall>(workbenchKeys.lastCall(server, tool.name))
  const callId = useRef<string | null>(null)
  const extensions = useMemo(
    () => jsonEditorExtensions((tool.inputSchema ?? {}) as JsonSchema),
    [tool.inputSchema],
  )

  const running = useMutation({
    mutationFn: (args: Record<string, unknown>) => {
      const id = crypto.randomUUID()
      callId.current = id
      return call('workbench:call', callRequest(server, tool.name, args, id, timeoutMs))
    },
    onSuccess: (result, args) => setLast(() => ({ result, args })),
    onError: (error) =>
      setLast(() => ({ error: { message: error.message, problems: problemsOf(error) } })),
    onSettled: async () => {
      callId.current = null
      await queryClient.invalidateQueries({ queryKey: workbenchKeys.history(server) })
    },
  })
  // Asks the core, which knows the whole schema and what it adds (rag-tools-v1's username).
  const check = useMutation({
    mutationFn: (args: Record<string, unknown>) =>
      call('workbench:validate', { server, tool: tool.name, arguments: args }),
  })

  const send = (): void => {
    const args = entered.current()
    check.reset()
    if (args && !timeoutError) running.mutate(args)
  }

  // A replay runs once, when the form it filled is first shown.
  const replayed = useRef(false)
  useEffect(() => {
    if (!runAtOnce || replayed.current) return
    replayed.current = true
    send()
  })

  const failed = running.isPending ? undefined : last?.error
  return {
    ...entered,
    extensions,
    timeoutError,
    editDraft: (next: Draft): void => {
      setDraft(next)
      check.reset()
    },
    editJson: (text: string): void => {
      setJsonText(text)
      check.reset()
    },
    send,
    running: running.isPending,
    cancel: (): void => {
      if (callId.current) void call('workbench:cancel', { callId: callId.current })
    },
    checkArguments: (): void => {
      const args = entered.current()
      if (args) check.mutate(args)
      else check.reset()
    },
    checking: check.isPending,
    /** The core found the arguments fit the schema. */
    valid: check.data?.valid === true,
    /** The call that failed, unless one is running. */
    failed,
    problems: [
      ...entered.localProblems,
      ...(failed?.problems ?? []),
      ...(check.data?.problems ?? []),
    ],
    /** The last call's result and the arguments it sent, unless one is running. */
    done: !running.isPending && last?.result ? last : undefined,
  }
}
