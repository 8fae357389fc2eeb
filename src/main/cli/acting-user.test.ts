import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type DemoProcess } from '#test/support/demo/programs'
import { demoProfile } from '#test/support/demo/profiles'
import {
  DEMO_KEY_ENV,
  cliHome,
  demoRegistry,
  json,
  runCli,
  writeRegistry,
} from '#test/support/cli/run-cli'

/**
 * `--user` names whom a command acts as: the saved profile with that user id (its session tags,
 * groups and human uid), or nobody's tags at all; never the active profile's tags under
 * another name. The output says whom it acted as.
 */

const ALICE = demoProfile('alice@example.com', 'alice', 'Alice Lee (sales)')
const CAROL = demoProfile('carol@example.com', 'carol', 'Carol Mendes (legal, admin)')

let demo: DemoProcess
let home: string
let config: string

const cli = (args: string[]) => runCli(['--config', config, ...args], home, { env: DEMO_KEY_ENV })

beforeAll(async () => {
  demo = await startDemo(['all', '--port-base', '0'])
  home = cliHome()
  config = writeRegistry(home, { knowledgeSearch: demoRegistry(demo).knowledgeSearch })
  // Carol is the active profile, Alice is saved too.
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      version: 1,
      profiles: [ALICE, CAROL],
      activeProfileId: 'carol',
      selections: {},
    }),
  )
})

afterAll(async () => {
  await demo?.stop()
  if (home) rmSync(home, { recursive: true, force: true })
})

/** The id of a segment of the master services agreement, which only legal and admins may read. */
async function legalSegment(): Promise<string> {
  const found = json<{ hits: { id: string }[] }>(
    await cli([
      '--json',
      'search',
      'master services agreement clauses',
      '--server',
      'knowledgeSearch',
    ]),
  )
  return found.hits.find((hit) => hit.id.startsWith('lg-msa'))!.id
}

describe('--user', () => {
  it('takes the saved profile of that user: Alice’s tags, not the active Carol’s', async () => {
    const segment = await legalSegment()
    const args = ['--user', 'alice@example.com', 'verify', '--server', 'knowledgeSearch']
    const run = await cli(['--json', ...args, '--segment', segment])
    expect(json(run)).toMatchObject({
      user: { userId: 'alice@example.com', sessionTags: ALICE.sessionTags, groups: ALICE.groups },
      access: { checked: true, hasAccess: false },
    })
    expect(run.stderr).toMatch(
      /^acting as alice@example\.com: the saved profile "Alice Lee \(sales\)" \(tags: department:sales, region:north\)$/m,
    )
  })

  it('acts as a user with no saved profile with no session tags, and says so', async () => {
    const run = await cli([
      '--json',
      '--user',
      'erin@example.com',
      'search',
      'master services agreement clauses',
      '--server',
      'knowledgeSearch',
    ])
    expect(json(run)).toMatchObject({
      user: { userId: 'erin@example.com', sessionTags: [] },
    })
    expect(
      json<{ hits: { id: string }[] }>(run).hits.filter((h) => h.id.startsWith('lg-msa')),
    ).toEqual([])
    expect(run.stderr).toMatch(
      /^acting as erin@example\.com: no saved profile has this user id, so no session tags \(give them with --tags\); servers and sources are listed as for the active profile's groups$/m,
    )
  })

  it('keeps the tags given with --tags over the saved profile’s', async () => {
    const run = await cli([
      '--json',
      '--user',
      'alice@example.com',
      '--tags',
      '["department:legal"]',
      'search',
      'clauses',
      '--server',
      'knowledgeSearch',
    ])
    expect(json(run)).toMatchObject({
      user: {
        userId: 'alice@example.com',
        sessionTags: ['department:legal'],
        groups: ALICE.groups,
      },
    })
  })
})
