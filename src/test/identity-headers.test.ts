import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type DemoProcess } from './support/demo/programs'
import { RAG_SEARCH_API_KEY } from '#demo/keys'
import { startCore, startProcess, type LiveCore, type Started } from './support/core/live'
import { demoProfile } from './support/demo/profiles'
import { packageFile } from './support/process/package-file'

/**
 * Who the acting user is goes only where it is meant to: the identity headers (`x-user-id`,
 * `x-session-tags`, `x-human-uid`) reach servers whose family defines them (rag-search) or whose
 * entry asks for them (`identityHeaders: true`), never a third-party server by default. Seen
 * from the servers' side, through a loopback proxy that records every request's headers.
 */

const everything = packageFile('@modelcontextprotocol/server-everything', 'dist/index.js')
const ALICE = demoProfile('alice@example.com', 'alice', 'Alice')
const IDENTITY = ['x-user-id', 'x-session-tags', 'x-human-uid']

/** A proxy to `target` that keeps the headers of every request it forwards. */
interface Recorder {
  url: string
  seen: IncomingHttpHeaders[]
  close(): Promise<void>
}

async function recorder(target: string): Promise<Recorder> {
  const upstream = new URL(target)
  const seen: IncomingHttpHeaders[] = []
  const server: Server = createServer((req, res) => {
    seen.push(req.headers)
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers)
        reply.pipe(res)
      },
    )
    forward.on('error', () => res.destroy())
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A loopback port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

const identitySeen = (proxy: Recorder): string[] =>
  [...new Set(proxy.seen.flatMap((headers) => IDENTITY.filter((name) => name in headers)))].sort()

let third: Started
let ragSearch: DemoProcess
let live: LiveCore | undefined
const proxies: Recorder[] = []

async function proxy(target: string): Promise<Recorder> {
  const made = await recorder(target)
  proxies.push(made)
  return made
}

beforeAll(async () => {
  // server-everything over streamable HTTP, on a port picked free here (it reads PORT).
  const port = await freePort()
  const run = [
    `process.env.PORT = '${port}'`,
    `process.argv = [process.argv[0], 'server-everything', 'streamableHttp']`,
    `await import(${JSON.stringify(pathToFileURL(everything).href)})`,
  ].join('; ')
  third = await startProcess(['--input-type=module', '-e', run], /listening on port/, 20_000)
  third.url = `http://127.0.0.1:${port}/mcp`
  ragSearch = await startDemo(['rag-search', '--port', '0', '--api-key', RAG_SEARCH_API_KEY])
})

afterEach(async () => {
  await live?.close()
  live = undefined
  for (const made of proxies.splice(0)) await made.close()
})

afterAll(async () => {
  await Promise.all([third?.stop(), ragSearch?.stop()])
})

async function core(registry: object): Promise<LiveCore> {
  live = await startCore(registry, { env: { ID_TEST_KEY: RAG_SEARCH_API_KEY } })
  live.core.settings.saveProfile(ALICE)
  live.core.settings.setActive(ALICE.id)
  return live
}

describe('identity headers', () => {
  it('are not sent to a third-party HTTP server, unless its entry asks for them', async () => {
    const plain = await proxy(third.url)
    const asking = await proxy(third.url)
    const { core: console } = await core({
      everything: { url: plain.url },
      everythingAsking: { url: asking.url, identityHeaders: true },
    })
    for (const server of ['everything', 'everythingAsking']) {
      const result = await console.workbench.call({
        server,
        tool: 'echo',
        arguments: { message: 'hi' },
      })
      expect(result.isError).toBe(false)
    }
    expect(plain.seen.length).toBeGreaterThan(0)
    expect(identitySeen(plain)).toEqual([])
    expect(identitySeen(asking)).toEqual(['x-session-tags', 'x-user-id'])
    const last = asking.seen.filter((headers) => 'x-user-id' in headers).at(-1)!
    expect(last['x-user-id']).toBe(ALICE.userId)
  })

  it('go to a server of the family that defines them (rag-search), and stay off when it says no', async () => {
    const family = await proxy(ragSearch.url)
    const refusing = await proxy(ragSearch.url)
    const entry = (url: string) => ({
      url,
      headers: { Authorization: 'Bearer ${env:ID_TEST_KEY}' },
    })
    const { core: console } = await core({
      knowledgeSearch: entry(family.url),
      quietSearch: { ...entry(refusing.url), identityHeaders: false },
    })
    const result = await console.services.search.run({
      searchId: 'identity',
      query: 'vpn setup',
      selection: { knowledgeSearch: [], quietSearch: [] },
    })
    expect(result.servers.map((s) => s.server).sort()).toEqual(['knowledgeSearch', 'quietSearch'])
    expect(identitySeen(family)).toEqual(['x-session-tags', 'x-user-id'])
    expect(identitySeen(refusing)).toEqual([])
  })
})
