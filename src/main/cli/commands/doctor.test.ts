import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type DemoProcess } from '#test/support/demo/programs'
import { NOT_PROVOKED_IDS } from '#core/services/doctor/registry'
import {
  DEMO_KEY_ENV,
  cliHome,
  demoRegistry,
  json,
  runCli,
  writeRegistry,
  type CliRun,
} from '#test/support/cli/run-cli'

/** `rag-console doctor` against every demo family, and against a deliberately broken RAGbox. */

const BOB = ['--user', 'bob@example.com', '--tags', '["department:engineering"]']

interface DoctorJson {
  servers: {
    server: string
    dialect: string | null
    checks: { id: string; title: string; spec: string; status: string; evidence: object }[]
  }[]
}

let demo: DemoProcess
let broken: DemoProcess
let home: string
let config: string
let brokenConfig: string

const cli = (args: string[], registry = config): Promise<CliRun> =>
  runCli(['--config', registry, ...BOB, ...args], home, { env: DEMO_KEY_ENV })

beforeAll(async () => {
  demo = await startDemo(['all', '--port-base', '0'])
  broken = await startDemo(['ragbox', '--port', '0', '--break', 'ragbox.silence'])
  home = cliHome()
  config = writeRegistry(home, demoRegistry(demo))
  brokenConfig = writeRegistry(
    home,
    {
      ...demoRegistry(demo),
      brokenVault: { url: broken.url, headers: { 'X-API-Key': '${env:CLI_TEST_RAGBOX_KEY}' } },
    },
    'broken.json',
  )
})

afterAll(async () => {
  await Promise.all([demo?.stop(), broken?.stop()])
  if (home) rmSync(home, { recursive: true, force: true })
})

describe('doctor', () => {
  it('passes every enabled demo server with exactly the documented keys (exit 0)', async () => {
    const run = await cli(['doctor', '--json'])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const result = json<DoctorJson>(run)
    expect(Object.keys(result)).toEqual(['servers'])
    expect(result.servers.map((s) => [s.server, s.dialect])).toEqual([
      ['knowledgeSearch', 'rag-search'],
      ['companyDocs', 'rag-tools-v1'],
      ['engineeringWiki', 'rag-tools-v1'],
      ['documentVault', 'ragbox'],
      ['productCatalog', 'vtex'],
    ])
    for (const server of result.servers) {
      expect(Object.keys(server).sort()).toEqual(['checks', 'dialect', 'server'])
      for (const check of server.checks) {
        expect(Object.keys(check).sort()).toEqual(['evidence', 'id', 'spec', 'status', 'title'])
        const status = NOT_PROVOKED_IDS.includes(check.id) ? 'not_applicable' : 'pass'
        expect([server.server, check.id, check.status]).toEqual([server.server, check.id, status])
      }
    }
  })

  it('exits 1 and names the failing check of a broken server', async () => {
    const run = await cli(['doctor', '--server', 'brokenVault'], brokenConfig)
    expect(run.code, run.stderr).toBe(1)
    expect(run.stdout).toMatch(/FAIL {2}ragbox\.silence/)
    expect(run.stdout).toMatch(/found: silence without a silence_reason/)
    expect(run.stdout).toMatch(/PASS {2}ragbox\.api-key/)
  })

  it('gives the failing check with its evidence in --json (exit 1)', async () => {
    const run = await cli(['doctor', '--server', 'brokenVault', '--json'], brokenConfig)
    expect(run.code).toBe(1)
    const [server] = json<DoctorJson>(run).servers
    const failed = server!.checks.filter((check) => check.status === 'fail')
    expect(failed.map((check) => check.id)).toEqual(['ragbox.silence'])
    expect(failed[0]!.evidence).toMatchObject({
      request: { method: 'tools/call', params: { name: 'query_knowledge' } },
      reply: { silence: true },
    })
    expect(run.stdout).not.toContain(DEMO_KEY_ENV.CLI_TEST_RAGBOX_KEY)
  })

  it('exits 1 with the reason for a server not in the registry', async () => {
    const run = await cli(['doctor', '--server', 'nope', '--json'])
    expect(run.code).toBe(1)
    expect(json<DoctorJson>(run).servers[0]).toMatchObject({
      server: 'nope',
      checks: [],
      error: { code: 'not_found' },
    })
  })
})
