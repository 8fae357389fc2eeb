import { ConsoleError } from '#shared/errors'
import type { InvokeRequest } from '#shared/ipc/contract'
import type { ArgumentProblem, WorkbenchCallResult } from '#shared/ipc/workbench'
import { argumentsOf, draftOf, type Draft, type FormNode } from './schema-form'

/** How a tool's arguments are entered. */
export type Mode = 'form' | 'json'

/** A tool's last call from its form: its result (with the arguments sent), or why it failed. */
export type LastCall =
  | { result: WorkbenchCallResult; args: Record<string, unknown>; error?: undefined }
  | { error: { message: string; problems: ArgumentProblem[] }; result?: undefined }

/** The argument problems a failed call names (an `invalid_argument` from the core), if any. */
export function problemsOf(error: unknown): ArgumentProblem[] {
  const problems = error instanceof ConsoleError ? error.details?.problems : undefined
  return Array.isArray(problems) ? (problems as ArgumentProblem[]) : []
}

/** The timeout as typed: empty for the server's own, else whole milliseconds in range. */
export function timeoutOf(text: string): { ms: number | undefined; error: string | undefined } {
  const ms = text.trim() === '' ? undefined : Number(text)
  const error =
    ms !== undefined && !(Number.isInteger(ms) && ms >= 100 && ms <= 600_000)
      ? 'A whole number of milliseconds from 100 to 600000'
      : undefined
  return { ms, error }
}

/** The JSON tab's text read as arguments (empty: none), or the problem with it. */
export function argumentsFromJson(
  text: string,
): { args: Record<string, unknown> } | { problem: ArgumentProblem } {
  try {
    const parsed = JSON.parse(text || '{}') as unknown
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error('the arguments must be a JSON object')
    }
    return { args: parsed as Record<string, unknown> }
  } catch (error) {
    return { problem: { path: '', message: (error as Error).message } }
  }
}

/** The form's arguments as the JSON tab shows them. */
export const jsonOf = (form: FormNode, draft: Draft): string =>
  JSON.stringify(argumentsOf(form, draft).args, null, 2)

/** The JSON tab's text as the form's draft, or undefined when it does not parse. */
export function draftFromJson(form: FormNode, text: string): Draft | undefined {
  try {
    return draftOf(form, JSON.parse(text || '{}'))
  } catch {
    return undefined
  }
}

/** What a call sends: the timeout only when one was typed. */
export function callRequest(
  server: string,
  tool: string,
  args: Record<string, unknown>,
  callId: string,
  timeoutMs: number | undefined,
): InvokeRequest<'workbench:call'> {
  return {
    server,
    tool,
    arguments: args,
    callId,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  }
}
