import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { BREAKS } from '#demo/breaks'
import { RAGBOX_KEYS } from '#demo/keys'
import { OWN_DOC_HOST, demoScript, startDemo, type DemoProcess } from './support/demo/programs'
import { CHECK_IDS, NOT_PROVOKED_IDS } from '#core/services/doctor/registry'
import { startCore, type LiveCore } from './support/core/live'
import type { ServerDoctorReport } from '#shared/model/doctor'
import { demoProfile } from './support/demo/profiles'
import { SAFETY_NET_MS } from './support/process/limits'

/**
 * Doctor against the real demo servers over their real transports: every family passes its
 * checks, and each `--break <check>` variant of a demo program fails exactly that check.
 */

const SECRET = `doctor-${randomBytes(12).toString('hex')}`
type Family = 'rag-search' | 'rag-tools-v1' | 'ragbox' | 'vtex' | 'generic'
const FAMILIES: Family[] = ['rag-search', 'rag-tools-v1', 'ragbox', 'vtex', 'generic']

/** A generic mapping of the VTEX demo's search_documents, as an admin would write it. */
const VTEX_AS_GENERIC = {
  search: {
    tool: 'search_documents',
    arguments: { query: '{query}', limit: '{topK}' },
    hits: 'results',
    fields: { text: 'content' },
  },
}

/** The demo program of a family, and the rag-mcp.json entry that reaches it. */
async function serve(
  family: Family,
  breaks: string[],
): Promise<{ entry: object; demo?: DemoProcess }> {
  const flags = breaks.flatMap((id) => ['--break', id])
  switch (family) {
    case 'rag-search': {
      const demo = await startDemo([
        'rag-search',
        '--port',
        '0',
        '--api-key',
        SECRET,
        ...OWN_DOC_HOST,
        ...flags,
      ])
      const headers = { Authorization: 'Bearer ${env:DOCTOR_KEY}' }
      return { demo, entry: { url: demo.url, headers, dialect: 'rag-search' } }
    }
    case 'rag-tools-v1': {
      const args = [demoScript(), 'rag-tools-v1', '--stdio', '--doc-host', 'http://127.0.0.1:0']
      return {
        entry: { transport: 'stdio', command: process.execPath, args: [...args, ...flags] },
      }
    }
    case 'ragbox': {
      const demo = await startDemo(['ragbox', '--port', '0', ...flags])
      const headers = { 'X-API-Key': '${env:RAGBOX_KEY}' }
      return { demo, entry: { url: demo.url, headers, dialect: 'ragbox' } }
    }
    case 'vtex': {
      const demo = await startDemo(['vtex', '--port', '0', ...flags])
      // Through the generic router, so the per-method endpoints can be broken on their own.
      return { demo, entry: { url: `${demo.url}/console`, dialect: 'vtex' } }
    }
    case 'generic': {
      const demo = await startDemo(['vtex', '--port', '0', ...flags])
      return { demo, entry: { url: `${demo.url}/console`, dialect: VTEX_AS_GENERIC } }
    }
  }
}

let running: { live?: LiveCore | undefined; demo?: DemoProcess | undefined } = {}

afterEach(async () => {
  await running.live?.close()
  await running.demo?.stop()
  running = {}
})

async function doctor(family: Family, breaks: string[] = []): Promise<ServerDoctorReport> {
  const { entry, demo } = await serve(family, breaks)
  running.demo = demo
  const live = await startCore(
    { probed: { ...entry, timeoutMs: SAFETY_NET_MS } },
    { env: { DOCTOR_KEY: SECRET, RAGBOX_KEY: RAGBOX_KEYS.acme } },
  )
  running.live = live
  const alice = demoProfile('alice@example.com', 'alice', 'Alice')
  live.core.settings.saveProfile(alice)
  live.core.settings.setActive(alice.id)
  const run = await live.core.services.doctor.run({ servers: ['probed'] })
  await live.core.services.idle()
  return run.servers[0]!
}

const familyOf = (id: string): Family =>
  id.startsWith('protocol.') ? 'rag-search' : (id.slice(0, id.indexOf('.')) as Family)

const failing = (report: ServerDoctorReport): string[] =>
  report.checks.filter((check) => check.status === 'fail').map((check) => check.id)

describe('Doctor on the demo servers', () => {
  it.each<Family>(FAMILIES)(
    '%s passes every check of its family and of the protocol',
    async (family) => {
      const report = await doctor(family)
      expect(report.error).toBeUndefined()
      expect(report.dialect).toBe(family)
      const notPassed = report.checks.filter(
        (check) => check.status !== 'pass' && !NOT_PROVOKED_IDS.includes(check.id),
      )
      expect(notPassed).toEqual([])
      expect(report.checks.map((check) => check.id)).toEqual(
        expect.arrayContaining([
          'protocol.ping',
          ...BREAKS.filter((id) => id.startsWith(`${family}.`)),
        ]),
      )
    },
  )

  it('every check of the registry has a --break variant of a demo server, and no break is stray', () => {
    expect([...BREAKS].sort()).toEqual([...CHECK_IDS].sort())
  })

  it.each(CHECK_IDS.map((id) => [id]))(
    'a demo broken with --break %s fails exactly that check',
    async (id) => {
      expect(BREAKS).toContain(id)
      const report = await doctor(familyOf(id), [id])
      expect(report.error).toBeUndefined()
      expect(failing(report)).toEqual([id])
    },
  )
})
