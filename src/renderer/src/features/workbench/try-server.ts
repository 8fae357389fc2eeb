import type { TrySpec } from '#shared/ipc/workbench'

type Transport = TrySpec['transport']

/** A header typed into the Try-a-server dialog; the value is a secret until it is sent. */
export interface HeaderDraft {
  name: string
  value: string
}

/** What the Try-a-server dialog holds: fields of both kinds, the transport says which count. */
export interface TryDraft {
  transport: Transport
  url: string
  command: string
  /** One argument per line, as typed. */
  args: string
  headers: readonly HeaderDraft[]
}

export const EMPTY_TRY: TryDraft = {
  transport: 'http',
  url: '',
  command: '',
  args: '',
  headers: [],
}

/** The arguments typed, without blank lines. */
const argsOf = (args: string): string[] => args.split('\n').filter((line) => line.trim() !== '')

/**
 * The request the draft makes: a stdio command and its arguments, or a URL and the named headers
 * (unnamed ones are left out; names are trimmed, values sent as typed).
 */
export function trySpecOf(draft: TryDraft): TrySpec {
  return draft.transport === 'stdio'
    ? { transport: draft.transport, command: draft.command.trim(), args: argsOf(draft.args) }
    : {
        transport: draft.transport,
        url: draft.url.trim(),
        headers: Object.fromEntries(
          draft.headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value]),
        ),
      }
}

/** Whether Connect can be pressed: a command for stdio, a URL otherwise. */
export const tryReady = (draft: TryDraft): boolean =>
  (draft.transport === 'stdio' ? draft.command : draft.url).trim() !== ''

/** The command line a stdio try runs, shown before it is confirmed. */
export const commandLine = (draft: TryDraft): string =>
  [draft.command.trim(), ...argsOf(draft.args)].join(' ')

/** The headers with the one at `index` changed. */
export const withHeader = (
  headers: readonly HeaderDraft[],
  index: number,
  change: Partial<HeaderDraft>,
): HeaderDraft[] => headers.map((h, i) => (i === index ? { ...h, ...change } : h))

/** The headers without the one at `index`. */
export const withoutHeader = (headers: readonly HeaderDraft[], index: number): HeaderDraft[] =>
  headers.filter((_, i) => i !== index)
