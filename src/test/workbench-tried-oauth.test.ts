import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startDemo, type DemoProcess } from '../demo/testing'
import type { OAuthStatus } from '../shared/ipc/auth'
import type { PendingElicitation } from '../shared/ipc/elicitation'
import type { IpcResponse } from '../shared/ipc/contract'
import { writeRegistry } from '../main/cli/testing/run-cli'
import { dispatch } from '../main/core/api/dispatch'
import { createHandlers, type Handlers } from '../main/core/api/handlers'
import { createCore, type Core } from '../main/core/core'
import { repoRoot } from './built'

/**
 * Servers tried in the Workbench get what registry servers get: an OAuth sign-in (against the
 * demo's OAuth server, tokens in memory: the console here has no keychain at all, so any
 * attempt to keep them there would fail the sign-in) and the app's form dialog for the forms
 * they ask for (a stdio fixture whose `ask` tool asks for one).
 */

const ASKER = join(repoRoot, 'src/main/core/pool/fixtures/elicit-stdio-server.mjs')

let demo: DemoProcess
let dir: string
let core: Core
let handlers: Handlers
const forms: PendingElicitation[] = []
const signIns: OAuthStatus[] = []

async function ipc<T>(channel: string, request?: unknown): Promise<IpcResponse<T>> {
  return (await dispatch(handlers, channel, request)) as IpcResponse<T>
}

async function ok<T>(channel: string, request?: unknown): Promise<T> {
  const response = await ipc<T>(channel, request)
  if (!response.ok) throw new Error(`${channel}: ${JSON.stringify(response.error)}`)
  return response.value
}

beforeAll(async () => {
  demo = await startDemo(['oauth', '--port', '0', '--approve-as', 'erin'])
  dir = mkdtempSync(join(tmpdir(), 'rc-tried-oauth-'))
  core = await createCore({
    configPath: writeRegistry(dir, {}),
    dataDir: join(dir, 'data'),
    env: { ...process.env, RAG_CONSOLE_OAUTH_OPENER: 'fetch' },
    watch: false,
    pool: { probeIntervalMs: 0 },
    logToStderr: null,
    elicit: 'windows',
    keychain: { openEntry: () => Promise.reject(new Error('no keychain in this test')) },
  })
  core.events.on('elicit:request', (form) => forms.push(form))
  core.events.on('auth:changed', (status) => signIns.push(status))
  handlers = createHandlers(core)
}, 30_000)

afterAll(async () => {
  await core?.dispose()
  await demo?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('a server tried in the Workbench', () => {
  it('behind OAuth: asks for a sign-in there, signs in with tokens in memory, then calls', async () => {
    const { server } = await ok<{ server: string }>('workbench:try', {
      transport: 'http',
      url: demo.url,
    })
    const before = await ipc('workbench:call', {
      server,
      tool: 'rag_discover_resources',
      arguments: {},
    })
    expect(before).toMatchObject({
      ok: false,
      error: {
        code: 'action_required',
        message: expect.stringContaining('use Sign in where it is tried in the Workbench'),
      },
    })
    expect(await ok('auth:status', { serverId: server })).toMatchObject([
      { serverId: server, state: 'sign_in_required' },
    ])
    // The windows hear of it, as they hear of a registry server's card.
    await vi.waitFor(() =>
      expect(signIns).toContainEqual(
        expect.objectContaining({ serverId: server, state: 'sign_in_required' }),
      ),
    )

    expect(await ok('auth:login', { serverId: server })).toMatchObject({
      serverId: server,
      state: 'signed_in',
      account: 'erin@example.com',
    })
    const call = await ok<{ isError: boolean }>('workbench:call', {
      server,
      tool: 'rag_discover_resources',
      arguments: {},
    })
    expect(call.isError).toBe(false)

    // Closed: nothing is kept for it, and its id names no server any more.
    await ok('workbench:try-close', { server })
    expect(await ipc('auth:status', { serverId: server })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
  })

  it("opens the forms it asks for in the app's windows, and the answer reaches it", async () => {
    const { server } = await ok<{ server: string }>('workbench:try', {
      transport: 'stdio',
      command: process.execPath,
      args: [ASKER],
    })
    const answered = ok<{ result: { content: { text: string }[] } }>('workbench:call', {
      server,
      tool: 'ask',
      arguments: { form: 'required' },
      timeoutMs: 30_000,
    })
    await vi.waitFor(() => expect(forms.some((form) => form.serverId === server)).toBe(true), {
      timeout: 20_000,
    })
    const form = forms.find((pending) => pending.serverId === server)!
    expect(form.message).toContain('Please fill in the required form')
    expect(
      await ok('elicit:answer', {
        id: form.id,
        answer: { action: 'accept', content: { name: 'Grace', team: 'search' } },
      }),
    ).toEqual({ answered: true })
    const { result } = await answered
    expect(JSON.parse(result.content[0]!.text)).toEqual({
      action: 'accept',
      content: { name: 'Grace', team: 'search' },
    })
    await ok('workbench:try-close', { server })
  })
})
