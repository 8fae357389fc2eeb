import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_CODES, type ErrorCode } from '#shared/errors'
import { cliHome, runCli, writeRegistry, type CliRun } from './support/cli/run-cli'
import {
  startHostProcess,
  type HostProcess,
  type IpcClient,
  type IpcResponse,
} from './support/host/host-process'
import { waitFor } from './support/process/wait-for'
import { repoRoot } from './support/process/built'
import { startFaultServer, type FaultServer } from './support/servers/fault-server'

/**
 * Error codes are a contract: each documented code (src/shared/errors.ts, the table in
 * docs/cli.md) is provoked by a real fault on a real transport, then read on every surface that
 * reports it — `search --json`, `call --json` (with its exit code), the browser host's replies
 * over its WebSocket (a separate process, long-running like the app, so its pool already knows
 * which servers are down) and the audit lines of both data folders. A code that drifts on any
 * surface, or a code without a row here and in the docs, fails.
 */

/** A row of the contract: the code, and how each surface is brought to report it. */
interface Row {
  code: ErrorCode
  /** A registry server whose use provokes the code: searched, called and audited. */
  server?: string
  /** Also read from `search --json` and `search:run` (default: when `server` is given). */
  search?: boolean
  /** `call` arguments other than `--server <server> --tool rag_search --args …`. */
  call?: string[]
  /** IPC requests provoking the code when no search or workbench call on `server` does. */
  ipc?: (ipc: IpcClient) => Promise<IpcResponse<unknown>>
  /** Why a surface cannot report it. */
  why?: string
}

const SEARCH_ARGS = ['--tool', 'rag_search', '--args', '{"search_phrases":["vpn"]}']

const ROWS: Row[] = [
  { code: 'timeout', server: 'hang' },
  {
    code: 'cancelled',
    why: 'only a person cancels: the host search:cancel; `call` has no cancel',
    ipc: async (ipc) => {
      const search = ipc.call<SearchReply>('search:run', {
        searchId: 'to-cancel',
        query: 'vpn',
        selection: { slow: [] },
      })
      await waitFor(
        async () =>
          ((await ipc.call('search:cancel', { searchId: 'to-cancel' })) as Ok<Cancel>).value
            .cancelled,
        'the search to be cancelled',
      )
      return serverError(await search, 'slow')
    },
  },
  { code: 'unreachable', server: 'dead' },
  { code: 'unauthorized', server: 'refusing' },
  { code: 'rate_limited', server: 'limited' },
  { code: 'protocol', server: 'garbled' },
  { code: 'server_error', server: 'failing' },
  { code: 'tool_error', server: 'erroring' },
  { code: 'not_connected', server: 'disabled', search: true },
  { code: 'config', server: 'missing' },
  { code: 'action_required', server: 'needsEnv' },
  { code: 'keychain_unavailable', server: 'locked' },
  { code: 'not_found', server: 'ghost' },
  {
    code: 'invalid_argument',
    call: ['--server', 'ok', '--tool', 'rag_search', '--args', '["not", "an object"]'],
    ipc: (ipc) =>
      ipc.call('workbench:call', {
        server: 'ok',
        tool: 'rag_search',
        arguments: { search_phrases: 'not an array' },
      }),
  },
  {
    code: 'conflict',
    why: 'two runs of one id need two requests in flight: the host only',
    ipc: async (ipc) => {
      const search = { searchId: 'twice', query: 'vpn', selection: { slow: [] } }
      const first = ipc.call('search:run', search)
      const second = await ipc.call('search:run', search)
      await ipc.call('search:cancel', { searchId: 'twice' })
      await first
      return second
    },
  },
  { code: 'unsupported', server: 'toolless' },
  {
    code: 'internal',
    why: 'a defect of the console, which no outside fault provokes (server.limits.test.ts sends one over the wire)',
  },
]

type Ok<T> = { ok: true; value: T }
interface Cancel {
  cancelled: boolean
}
interface ServerPart {
  server: string
  ok: boolean
  error?: { code: string; message: string; origin?: string }
}
interface SearchReply {
  servers: ServerPart[]
}

/** The part of one server in a search reply, as an error reply of its own. */
function serverError(reply: IpcResponse<SearchReply>, server: string): IpcResponse<unknown> {
  if (!reply.ok) return reply
  const part = reply.value.servers.find((s) => s.server === server)
  return part?.error ? { ok: false, error: part.error } : { ok: true, value: part }
}

/** The table of docs/cli.md's "Error codes": code → origin and `call`'s exit code. */
function documentedCodes(): Map<string, { origin: string; exit: number | undefined }> {
  const text = readFileSync(join(repoRoot, 'docs/cli.md'), 'utf8')
  const section = text.slice(text.indexOf('## Error codes'))
  const rows = new Map<string, { origin: string; exit: number | undefined }>()
  for (const match of section.matchAll(/^\| `(\w+)` +\|[^|]*\| (\w+) +\| (\S+) +\|$/gm)) {
    rows.set(match[1]!, {
      origin: match[2]!,
      exit: match[3] === '—' ? undefined : Number(match[3]),
    })
  }
  return rows
}

let fault: FaultServer
let home: string
let hostHome: string
let config: string
let host: HostProcess
let ipc: IpcClient
/** The environment of every console process here: no keychain (so `locked` cannot read it). */
let env: NodeJS.ProcessEnv
let cliSearch: { run: CliRun; servers: ServerPart[] }
/** `call --json` of each row that has one, by code. */
const callRuns = new Map<ErrorCode, CliRun>()
let hostSearch: SearchReply

const audit = (dir: string): Record<string, unknown>[] => {
  try {
    return readFileSync(join(dir, 'audit', 'audit.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
  } catch {
    return []
  }
}

beforeAll(async () => {
  fault = await startFaultServer()
  home = cliHome()
  hostHome = cliHome()
  const at = (path: string, extra: object = {}): object => ({
    url: `${fault.origin}${path}/mcp`,
    dialect: 'rag-search',
    timeoutMs: 3_000,
    ...extra,
  })
  config = writeRegistry(home, {
    ok: at('/ok'),
    hang: at('/hang', { timeoutMs: 1_500 }),
    slow: at('/hang', { timeoutMs: 60_000 }),
    toolless: at('/no-tools'),
    dead: { url: 'http://127.0.0.1:9/mcp', dialect: 'rag-search' },
    refusing: at('/status/401'),
    limited: at('/status/429'),
    garbled: at('/garbage'),
    failing: at('/status/500'),
    erroring: at('/is-error'),
    disabled: at('/ok', { enabled: false }),
    missing: { command: join(home, 'no-such-server'), dialect: 'rag-search' },
    needsEnv: at('/ok', { headers: { Authorization: 'Bearer ${env:RC_CONTRACT_UNSET}' } }),
    locked: at('/ok', { headers: { Authorization: 'Bearer ${keychain:apiKey}' } }),
  })
  env = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }
  host = await startHostProcess({
    config,
    env: { ...process.env, ...env, RAG_CONSOLE_HOME: hostHome },
  })
  ipc = await host.connect()
  // As a page does: the host connects its servers once a page has its list.
  await ipc.call('servers:list')
  // The host has tried every server: it knows which are down or need a person.
  let states: Record<string, string> = {}
  await waitFor(async () => {
    const reply = (await ipc.call('pool:status')) as Ok<
      { server: string; status: { state: string } }[]
    >
    states = Object.fromEntries(reply.value.map((s) => [s.server, s.status.state]))
    return states.dead === 'down' && !Object.values(states).includes('connecting')
  }, 'the host to have tried every server').catch((error: Error) => {
    throw new Error(`${error.message}: ${JSON.stringify(states)}`)
  })
  const searched = ROWS.filter((row) => row.server && row.search !== false).map(
    (row) => row.server!,
  )
  const run = await runCli(
    ['--config', config, '--json', 'search', 'vpn', ...searched.flatMap((s) => ['--server', s])],
    home,
    { env },
  )
  cliSearch = { run, servers: (JSON.parse(run.stdout) as SearchReply).servers }
  // The rows' `call`s, four processes at a time.
  const calls = ROWS.filter((row) => row.server || row.call)
  const callOf = async (row: Row): Promise<void> => {
    const args = row.call ?? ['--server', row.server!, ...SEARCH_ARGS]
    callRuns.set(
      row.code,
      await runCli(['--config', config, '--json', 'call', ...args], home, { env }),
    )
  }
  await Promise.all(
    [0, 1, 2, 3].map(async (lane) => {
      for (let i = lane; i < calls.length; i += 4) await callOf(calls[i]!)
    }),
  )
  const reply = (await ipc.call('search:run', {
    searchId: 'contract',
    query: 'vpn',
    selection: Object.fromEntries(searched.map((s) => [s, []])),
  })) as IpcResponse<SearchReply>
  if (!reply.ok) throw new Error(`search:run failed: ${reply.error.message}`)
  hostSearch = reply.value
})

afterAll(async () => {
  ipc?.close()
  await host?.stop()
  await fault?.close()
  for (const dir of [home, hostHome]) if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('the error codes', () => {
  it('are each documented in docs/cli.md, and each has a row here', () => {
    expect([...documentedCodes().keys()].sort()).toEqual([...ERROR_CODES].sort())
    expect(ROWS.map((row) => row.code).sort()).toEqual([...ERROR_CODES].sort())
    for (const row of ROWS) {
      if (!row.server && !row.ipc && !row.call) expect(row.why, row.code).toBeTruthy()
    }
  })
})

describe.each(ROWS.filter((row) => row.server || row.call || row.ipc))('$code', (row) => {
  const documented = (): { origin: string; exit: number | undefined } =>
    documentedCodes().get(row.code)!

  if (row.server && row.search !== false) {
    it('reads the same in search --json and in the host’s search:run', () => {
      const cli = cliSearch.servers.find((s) => s.server === row.server)
      expect(cli?.error?.code, cli?.error?.message).toBe(row.code)
      const hosted = hostSearch.servers.find((s) => s.server === row.server)
      expect(hosted?.error?.code, hosted?.error?.message).toBe(row.code)
      expect(hosted?.error?.origin ?? 'local').toBe(documented().origin)
    })
  }

  if (row.server || row.call) {
    it('reads the same in call --json, which exits as documented', () => {
      const run = callRuns.get(row.code)!
      const printed = JSON.parse(run.stdout) as { error?: { code: string }; isError?: boolean }
      if (row.code === 'tool_error') expect(printed.isError).toBe(true)
      else expect(printed.error?.code, run.stdout).toBe(row.code)
      expect(run.code, run.stderr).toBe(documented().exit)
    })
  }

  it('reads the same in the host’s reply over its WebSocket', async () => {
    const reply = row.ipc
      ? await row.ipc(ipc)
      : await ipc.call('workbench:call', {
          server: row.server,
          tool: 'rag_search',
          arguments: { search_phrases: ['vpn'] },
        })
    if (row.code === 'tool_error') {
      expect(reply).toMatchObject({ ok: true, value: { isError: true } })
      return
    }
    expect(reply.ok, JSON.stringify(reply)).toBe(false)
    if (reply.ok) return
    expect(reply.error.code, reply.error.message).toBe(row.code)
    expect(reply.error.origin ?? 'local').toBe(documented().origin)
  })

  if (row.server && row.code !== 'not_found' && row.code !== 'not_connected') {
    it('reads the same in the audit lines of the CLI and of the host', async () => {
      // The host writes its lines at the end of a tick; reading the log over IPC flushes them.
      await ipc.call('audit:list', {})
      for (const dir of [home, hostHome]) {
        const lines = audit(dir).filter((line) => line.server === row.server)
        const operations = [...new Set(lines.map((line) => line.operation))].sort()
        expect(operations, dir).toEqual(['search', 'workbench'])
        for (const line of lines) expect(line.errorCode, JSON.stringify(line)).toBe(row.code)
      }
    })
  }
})
