import { describe, expect, it } from 'vitest'
import type { ServerDiscovery } from '#shared/model/operations'
import type { ServerStatus, ServerSummary } from '#shared/model/server'
import { testSource as source } from '#test/support/model/servers'
import {
  adviceFor,
  commandLine,
  describeRateLimit,
  dialectBadge,
  formatMs,
  hasLog,
  latencyText,
  oauthOf,
  selectAll,
  serversWithSourceTrouble,
  sourceRows,
  statusLabel,
  whereOf,
} from './server-view'

const summary = (status: ServerStatus, extra: Partial<ServerSummary> = {}): ServerSummary => ({
  id: 'kb',
  enabled: true,
  transport: 'http',
  groups: [],
  ui: {},
  origin: '/r.json',
  dialect: { id: 'ragbox', source: 'config', reason: '' },
  status,
  tools: [],
  visible: true,
  secrets: [],
  ...extra,
})

const discovery = (sources: ReturnType<typeof source>[], extra: Partial<ServerDiscovery> = {}) =>
  ({ server: 'kb', ok: true, latencyMs: 1, sources, missing: [], ...extra }) as ServerDiscovery

describe('adviceFor', () => {
  it("does not repeat the next step the pool's message already names", () => {
    const message =
      'cannot reach server kb at http://127.0.0.1:9/mcp: connect ECONNREFUSED. Check that it is running and that its "url" in rag-mcp.json is right; the console keeps retrying'
    const advice = adviceFor(
      summary({
        state: 'down',
        since: 0,
        lastError: { code: 'unreachable', message },
        attempt: 2,
        nextRetryAt: 12_000,
      }),
      0,
    )
    expect(advice?.problem).toContain('Check that it is running')
    expect(advice?.next).not.toMatch(/check that|url is right/i)
    expect(advice?.next).toBe('Next automatic retry in 12 s; Reconnect tries now.')
  })

  it('says nothing about a ready server', () => {
    expect(adviceFor(summary({ state: 'ready', since: 0 }))).toBeNull()
  })

  it('sends a server missing a keychain secret to the Secrets tab, naming the secret', () => {
    const advice = adviceFor(
      summary({ state: 'action_required', since: 0, reason: 'x', missingSecrets: ['apiKey'] }),
    )
    expect(advice).toMatchObject({ remedy: 'set-secrets', tone: 'warn' })
    expect(advice?.problem).toContain('"apiKey"')
  })

  it('tells where to set a missing ${env:} variable, with no keychain action', () => {
    const advice = adviceFor(
      summary(
        { state: 'action_required', since: 0, reason: 'x', missingEnv: ['KB_TOKEN'] },
        { transport: 'stdio' },
      ),
    )
    expect(advice?.remedy).toBeUndefined()
    expect(advice?.problem).toBe(
      'kb needs the environment variable KB_TOKEN, which is not set in the console’s environment.',
    )
    expect(advice?.next).toMatch(/environment the console was started from.*restart the console/)
    expect(`${advice?.problem} ${advice?.next}`).not.toMatch(/keychain|Secrets/)
  })

  it('names a missing ${env:} variable too when a keychain secret is also missing', () => {
    const advice = adviceFor(
      summary({
        state: 'action_required',
        since: 0,
        reason: 'x',
        missingSecrets: ['apiKey'],
        missingEnv: ['KB_TOKEN'],
      }),
    )
    expect(advice?.remedy).toBe('set-secrets')
    expect(advice?.next).toMatch(/Also set KB_TOKEN in the console’s environment, then restart it/)
  })

  it('asks for a missing session token in Config → Secrets, kept in memory only', () => {
    const advice = adviceFor(
      summary({ state: 'action_required', since: 0, reason: 'x', missingSessionTokens: ['tok'] }),
    )
    expect(advice).toMatchObject({ remedy: 'set-secrets', tone: 'warn' })
    expect(advice?.problem).toContain('session token "tok"')
    expect(advice?.next).toMatch(/this session only/)
  })

  it('points a crashed stdio server at its log', () => {
    const advice = adviceFor(
      summary(
        {
          state: 'down',
          since: 0,
          attempt: 2,
          lastError: { code: 'unreachable', message: 'closed' },
        },
        { transport: 'stdio' },
      ),
    )
    expect(advice).toMatchObject({ remedy: 'show-log', tone: 'bad', problem: 'closed.' })
  })

  it('tells when the next automatic retry of a down server comes', () => {
    const advice = adviceFor(
      summary({
        state: 'down',
        since: 0,
        attempt: 1,
        nextRetryAt: 12_000,
        lastError: { code: 'unreachable', message: 'fetch failed' },
      }),
      2_000,
    )
    expect(advice?.next).toContain('Next automatic retry in 10 s;')
    expect(advice?.remedy).toBe('reconnect')
  })

  it('leaves a server waiting for an OAuth sign-in to its sign-in row, with no second banner', () => {
    const advice = adviceFor(
      summary({
        state: 'action_required',
        since: 0,
        reason: 'wiki needs an OAuth sign-in',
        signInRequired: true,
      }),
    )
    expect(advice).toBeNull()
  })

  it('offers to enable a disabled server', () => {
    expect(adviceFor(summary({ state: 'disabled', since: 0 }))?.remedy).toBe('enable')
  })
})

describe('oauthOf', () => {
  it('takes the sign-in state the server summary carries', () => {
    const oauth = { serverId: 'kb', state: 'signed_in' as const, account: 'ana' }
    expect(oauthOf(summary({ state: 'ready', since: 0 }, { oauth }))).toBe(oauth)
  })

  it('reads “sign-in required” from the status when the summary carries no sign-in state', () => {
    const status: ServerStatus = {
      state: 'action_required',
      since: 0,
      reason: 'x',
      signInRequired: true,
    }
    expect(oauthOf(summary(status))).toEqual({ serverId: 'kb', state: 'sign_in_required' })
  })

  it('gives nothing for a server without OAuth', () => {
    expect(oauthOf(summary({ state: 'ready', since: 0 }))).toBeUndefined()
  })
})

describe('statusLabel', () => {
  it('calls a server waiting for an OAuth sign-in “sign-in required”', () => {
    expect(
      statusLabel({ state: 'action_required', since: 0, reason: 'x', signInRequired: true }),
    ).toBe('sign-in required')
  })

  it('keeps the standard words of every other state', () => {
    expect(statusLabel({ state: 'action_required', since: 0, reason: 'x' })).toBeUndefined()
    expect(statusLabel({ state: 'ready', since: 0 })).toBeUndefined()
  })
})

describe('commandLine', () => {
  it('shows the command with its arguments, quoting those with spaces', () => {
    expect(commandLine('node', ['kb server.js', '--port', '0'])).toBe(
      'node "kb server.js" --port 0',
    )
    expect(commandLine('kb')).toBe('kb')
  })
})

describe('serversWithSourceTrouble', () => {
  it('names the servers a visible source of which needs a capability token or credentials', () => {
    const ready = summary({ state: 'ready', since: 0 })
    const result = {
      user: { userId: 'u', sessionTags: [], groups: [] },
      servers: [
        discovery([source('legal', { authMode: 'capability', selected: false })]),
        { ...discovery([source('open')]), server: 'plain' },
        { ...discovery([source('legal', { authMode: 'capability' })]), server: 'given' },
        {
          ...discovery([source('hidden', { authMode: 'capability', visible: false })]),
          server: 'locked',
        },
      ],
    }
    const summaries = ['kb', 'plain', 'given', 'locked'].map((id) => ({ ...ready, id }))
    const tokens = [{ server: 'given', name: 'legal' }]
    expect([...serversWithSourceTrouble(result, summaries, undefined, tokens)]).toEqual(['kb'])
  })
})

describe('sourceRows', () => {
  const ready = summary({ state: 'ready', since: 0 })

  it('lets a remembered toggle win over what the last discovery reported', () => {
    const rows = sourceRows(
      discovery([source('a'), source('b', { selected: false })]),
      { a: false, b: true },
      ready,
    )
    expect(rows.map((r) => r.selected)).toEqual([false, true])
  })

  it('never selects a source the profile may not see, and marks it locked', () => {
    const rows = sourceRows(discovery([source('a', { visible: false })]), { a: true }, ready)
    expect(rows[0]).toMatchObject({ selected: false, access: 'locked' })
  })

  it('marks sources needing credentials as action required when discovery was refused', () => {
    const rows = sourceRows(
      discovery([source('a', { authRequired: true }), source('b')], {
        ok: false,
        error: { code: 'unauthorized', message: 'no' },
      }),
      undefined,
      ready,
    )
    expect(rows.map((r) => r.access)).toEqual(['action_required', 'open'])
  })

  it('asks for a session token for a capability source, and opens it once one is given', () => {
    const legal = discovery([source('legal', { authMode: 'capability', authRequired: true })])
    const [without] = sourceRows(legal, undefined, ready, [])
    expect(without).toMatchObject({ access: 'action_required', token: 'missing' })
    expect(without?.problem).toBe('Needs a capability token: give one for this session only.')
    const [given] = sourceRows(legal, undefined, ready, ['legal'])
    expect(given).toMatchObject({ access: 'open', token: 'set' })
    expect(given?.problem).toBeUndefined()
  })

  it('shows in the row what discovery reported wrong with a source, in the server’s words', () => {
    const message = 'server kb reported backend_unavailable (source old): archived, offline'
    const error = { code: 'server_error' as const, message }
    const rows = sourceRows(
      discovery([
        source('old', { error: { ...error, details: { serverMessage: 'archived, offline' } } }),
        source('new'),
        source('odd', { error }),
      ]),
      undefined,
      ready,
    )
    expect(rows[0]).toMatchObject({ access: 'unavailable', problem: 'archived, offline.' })
    expect(rows[2]).toMatchObject({ access: 'unavailable', problem: message })
    expect(rows[1]).toMatchObject({ access: 'open' })
    expect(rows[1]?.problem).toBeUndefined()
  })

  it('does not call the sources of a server that cannot be reached open: unknown until it connects', () => {
    const rows = (state: ServerStatus) =>
      sourceRows(discovery([source('all'), source('kb', { authRequired: true })]), undefined, {
        status: state,
      }).map((r) => r.access)
    const missing = { state: 'action_required', since: 0, reason: 'key', missingSecrets: ['k'] }
    expect(rows(missing as ServerStatus)).toEqual(['unknown', 'action_required'])
    const down = { code: 'unreachable' as const, message: 'down' }
    expect(rows({ state: 'down', since: 0, attempt: 2, lastError: down })).toEqual([
      'unknown',
      'unknown',
    ])
    expect(rows({ state: 'connecting', since: 0, attempt: 1 })).toEqual(['unknown', 'unknown'])
    expect(rows({ state: 'degraded', since: 0, reason: 'slow' })).toEqual(['open', 'open'])
  })

  it('says in the row why a source needs credentials when discovery was refused', () => {
    const [row] = sourceRows(
      discovery([source('a', { authRequired: true })], {
        ok: false,
        error: { code: 'unauthorized', message: 'no' },
      }),
      undefined,
      ready,
    )
    expect(row?.problem).toMatch(/refused/)
  })
})

describe('selectAll', () => {
  it('toggles every source the profile may see, and no other', () => {
    const rows = sourceRows(
      discovery([source('a'), source('b', { visible: false })]),
      undefined,
      summary({ state: 'ready', since: 0 }),
    )
    expect(selectAll(rows, false)).toEqual({ a: false })
  })
})

describe('formatting', () => {
  it('picks a unit per magnitude', () => {
    expect([0, 0.25, 12.34, 480.6, 1520].map(formatMs)).toEqual([
      '0 ms',
      '250 µs',
      '12.3 ms',
      '481 ms',
      '1.52 s',
    ])
  })

  it('says how much of the rate limit is left', () => {
    expect(describeRateLimit({ limit: 60, remaining: 0, at: 0 })).toBe('0 / 60 left')
    expect(describeRateLimit({ at: 0 })).toBeNull()
  })
})

describe('the card facts', () => {
  const ready: ServerStatus = { state: 'ready', since: 0 }

  it('shows where a server is reached: its URL, else its quoted command line, else nothing', () => {
    expect(whereOf({ url: 'https://kb/mcp' })).toEqual({ label: 'URL', text: 'https://kb/mcp' })
    expect(whereOf({ command: 'node', args: ['my server.js'] })).toEqual({
      label: 'Command',
      text: 'node "my server.js"',
    })
    expect(whereOf({})).toBeUndefined()
  })

  it('offers a log only for servers the console runs', () => {
    expect(hasLog(summary(ready))).toBe(false)
    expect(hasLog(summary(ready, { transport: 'stdio' }))).toBe(true)
    expect(hasLog(summary(ready, { command: 'node' }))).toBe(true)
  })

  it('shows p50 / p95, or a dash before any call was measured', () => {
    expect(latencyText({ p50: 12, p95: 1250 })).toBe('12 ms / 1.25 s')
    expect(latencyText(undefined)).toBe('–')
  })

  it('labels the dialect with where it came from, and a detected one as auto', () => {
    expect(dialectBadge({ id: 'ragbox', source: 'config', reason: 'set' })).toEqual({
      text: 'ragbox',
      title: 'Set in config: set',
      tone: 'info',
    })
    expect(dialectBadge({ id: 'vtex', source: 'detected', reason: 'tools match' })).toEqual({
      text: 'vtex · auto',
      title: 'Detected: tools match',
      tone: 'info',
    })
    expect(dialectBadge({ id: null, source: 'detected', reason: 'no match' })).toMatchObject({
      text: 'no dialect',
      tone: 'neutral',
    })
  })
})
