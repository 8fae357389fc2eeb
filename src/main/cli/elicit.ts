import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import type {
  ElicitationAnswer,
  ElicitationHandler,
  ElicitationRequest,
} from '#core/pool/elicitation'
import {
  defaultsOf,
  problemOf,
  type ElicitContent,
  type ElicitField,
} from '#shared/model/elicitation'
import type { ELICIT_MODES } from './command-table'
import type { CliContext } from './context'

/** How `call` and `tools` answer a server's form (`--elicit`). */
export type ElicitMode = (typeof ELICIT_MODES)[number]

/** Where `ask` reads answers and writes prompts. */
export interface PromptStreams {
  input: Readable
  output: Writable
}

/**
 * `--elicit` (the parser checked it); without it: `ask` when a person is at the terminal, else
 * none (the server is told the console offers no elicitation, which is declining in advance).
 */
export function elicitModeOf(
  mode: ElicitMode | undefined,
  interactive: boolean,
): ElicitMode | null {
  return mode ?? (interactive ? 'ask' : null)
}

/**
 * The handler `--elicit` asks for (`call`, `tools`), or none. A person is at the terminal as for
 * sign-in: stdin and stderr are terminals and the output is not `--json`.
 */
export function cliElicitation(
  ctx: CliContext,
  asked: ElicitMode | undefined,
): ElicitationHandler | undefined {
  const interactive = !ctx.out.json && process.stdin.isTTY === true && process.stderr.isTTY === true
  const mode = elicitModeOf(asked, interactive)
  return mode ? elicitHandler(mode, (message) => ctx.out.warn(message)) : undefined
}

/** The handler for a mode; `warn` explains on stderr why a form was declined. */
export function elicitHandler(
  mode: ElicitMode,
  warn: (message: string) => void,
  prompt: PromptStreams = { input: process.stdin, output: process.stderr },
): ElicitationHandler {
  switch (mode) {
    case 'ask':
      return (request, signal) => askForm(request, prompt, signal)
    case 'accept-defaults':
      return async (request) => {
        const missing = request.fields.filter((f) => f.required && f.default === undefined)
        if (missing.length === 0) return { action: 'accept', content: defaultsOf(request.fields) }
        warn(
          `${request.serverId} asked for ${missing.map((f) => f.name).join(', ')}, which ` +
            'have no default: declined (--elicit accept-defaults answers only with defaults; ' +
            'use --elicit ask at a terminal to fill them in)',
        )
        return { action: 'decline' }
      }
    case 'decline':
    case 'cancel':
      return async () => ({ action: mode })
  }
}

/**
 * Asks a person for each field of a form: a blank line takes the default (or skips an optional
 * field); a value that does not fit is asked again. The end of input cancels.
 */
export async function askForm(
  request: ElicitationRequest,
  { input, output }: PromptStreams,
  signal: AbortSignal,
): Promise<ElicitationAnswer> {
  // A call cancelled before its form came: nothing to ask (an 'abort' event will not come).
  if (signal.aborted) return { action: 'cancel' }
  // Lines typed ahead (or piped) wait in the iterator until their question comes.
  const lines = createInterface({ input, terminal: false })
  const next = lines[Symbol.asyncIterator]()
  const aborted = new Promise<null>((resolve) =>
    signal.addEventListener('abort', () => resolve(null), { once: true }),
  )
  const ask = async (query: string): Promise<string | null> => {
    output.write(query)
    const line = await Promise.race([next.next(), aborted])
    return line && !line.done ? line.value : null
  }
  try {
    output.write(`\n${request.serverId} asks: ${request.message}\n`)
    const choice = (await ask('accept and fill in, decline or cancel? [a/d/c] (a): '))?.trim()
    if (choice === undefined || signal.aborted) return { action: 'cancel' }
    if (/^d/i.test(choice)) return { action: 'decline' }
    if (/^c/i.test(choice)) return { action: 'cancel' }
    const content: ElicitContent = {}
    for (const field of request.fields) {
      for (;;) {
        const text = await ask(`${describeField(field)}: `)
        if (text === null) return { action: 'cancel' }
        const value = valueOf(field, text.trim())
        if (value === undefined) break
        if (typeof value === 'object' && 'problem' in value) {
          output.write(`  ${value.problem}\n`)
          continue
        }
        content[field.name] = value
        break
      }
    }
    return { action: 'accept', content }
  } finally {
    lines.close()
  }
}

/** `age (integer 1–100, required) [30]` */
function describeField(field: ElicitField): string {
  const about = [field.kind === 'number' && field.integer ? 'integer' : field.kind]
  if ('options' in field) {
    about[0] = field.options
      .map((o) => (o.label === o.value ? o.value : `${o.value} = ${o.label}`))
      .join(' | ')
  }
  if (field.kind === 'multi') about.push('comma-separated')
  if (field.kind === 'string' && field.format) about.push(field.format)
  if (field.required) about.push('required')
  const label = field.title && field.title !== field.name ? ` "${field.title}"` : ''
  const fallback = field.default === undefined ? '' : ` [${String(field.default)}]`
  const help = field.description ? ` — ${field.description}` : ''
  return `  ${field.name}${label} (${about.join(', ')})${help}${fallback}`
}

type Typed = ElicitContent[string]

/** The typed value of an answer; undefined to leave the field out; a problem to ask again. */
function valueOf(field: ElicitField, text: string): Typed | undefined | { problem: string } {
  if (text === '') {
    if (field.default !== undefined) return field.default
    return field.required ? { problem: `${field.name} is required` } : undefined
  }
  let value: unknown = text
  if (field.kind === 'number') value = Number(text)
  else if (field.kind === 'boolean') {
    value = /^(y|yes|true)$/i.test(text) ? true : /^(n|no|false)$/i.test(text) ? false : text
  } else if (field.kind === 'multi') value = text.split(',').map((part) => part.trim())
  const problem = problemOf(field, value)
  return problem ? { problem: `${field.name} ${problem}` } : (value as Typed)
}
