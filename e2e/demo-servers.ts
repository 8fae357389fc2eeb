import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { DEMO_USERS } from '#demo/access'
import { OWN_DOC_HOST, startDemo, type DemoProcess } from '#test/support/demo/programs'
import { invoke, test as consoleTest, type Entry } from './console'

/** A rag-search demo server with its own document host, and the key it accepts. */
export interface RagSearchDemo {
  process: DemoProcess
  /** Base URL of its document host. */
  docs: string
  /** The Bearer key, unique per run (so a test can prove it never leaks). */
  key: string
  /** The registry entry; its key comes from the host's environment (`RS_KEY`). */
  entry: Entry
  /** Environment for the console host. */
  env: NodeJS.ProcessEnv
}

/** Starts rag-search on a free loopback port; stop it with `demo.process.stop()`. */
export async function startRagSearch(): Promise<RagSearchDemo> {
  const key = `e2e-key-${randomBytes(12).toString('hex')}`
  const process = await startDemo(['rag-search', '--port', '0', '--api-key', key, ...OWN_DOC_HOST])
  return {
    process,
    docs: process.docs!,
    key,
    entry: {
      url: process.url,
      description: 'Knowledge search (demo)',
      headers: { Authorization: 'Bearer ${env:RS_KEY}' },
      dialect: 'rag-search',
      groups: ['users'],
    },
    env: { RS_KEY: key },
  }
}

/** Saves a profile per demo user (`alice`, `bob`, `carol`, `dan`) without switching to it. */
export async function saveDemoProfiles(page: Page): Promise<void> {
  for (const user of DEMO_USERS) {
    await invoke(page, 'profiles:save', {
      id: user.id.split('@')[0],
      name: user.name,
      userId: user.id,
      sessionTags: user.sessionTags,
      groups: user.groups,
    })
  }
}

interface FoundHit {
  id: string
  uri?: string
}

/** Searches one server through the contract as the active user; the hit whose link has `uriPart`. */
export async function findHit(
  page: Page,
  server: string,
  query: string,
  uriPart: string,
): Promise<FoundHit> {
  const result = await invoke<{ servers: { hits: FoundHit[] }[] }>(page, 'search:run', {
    searchId: `e2e-${randomBytes(4).toString('hex')}`,
    query,
    topK: 20,
    selection: { [server]: [] },
  })
  const hit = result.servers[0]?.hits.find((h) => h.uri?.includes(uriPart))
  if (!hit) throw new Error(`no hit with ${uriPart} for "${query}" on ${server}`)
  return hit
}

/**
 * The console fixtures plus `ragSearch`: one rag-search demo server per worker (started on
 * first use, stopped when the worker ends), shared by the specs that ask for it.
 */
export const test = consoleTest.extend<object, { ragSearch: RagSearchDemo }>({
  ragSearch: [
    async ({}, use) => {
      const demo = await startRagSearch()
      await use(demo)
      await demo.process.stop()
    },
    { scope: 'worker' },
  ],
})

export { expect } from './console'
