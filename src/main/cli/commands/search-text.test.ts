import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliHome, json, runCli, writeRegistry } from '#test/support/cli/run-cli'
import { packageFile } from '#test/support/process/package-file'

/**
 * Plain-text `search` says what `--json` says: a mapped server whose replies break the mapping
 * (`@modelcontextprotocol/server-everything`'s `echo`, which answers text, not JSON) is named
 * with its contract violations, not left at "0 hit(s)".
 */

const everything = packageFile('@modelcontextprotocol/server-everything', 'dist/index.js')

let home: string
let config: string

beforeAll(() => {
  home = cliHome()
  config = writeRegistry(home, {
    echoes: {
      transport: 'stdio',
      command: process.execPath,
      args: [everything, 'stdio'],
      dialect: { search: { tool: 'echo', arguments: { message: '{query}' }, hits: 'results' } },
    },
  })
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('search (text)', () => {
  it('names the contract violations --json reports', async () => {
    const args = ['--config', config, 'search', 'policy', '--server', 'echoes']
    const asJson = json<{ servers: { violations: { rule: string }[] }[] }>(
      await runCli(['--json', ...args], home),
    )
    const rules = asJson.servers[0]!.violations.map((v) => v.rule)
    expect(rules).toEqual(expect.arrayContaining(['unparsable_json', 'missing_field']))
    const run = await runCli(args, home)
    expect(run.stdout).toMatch(/^0 hit\(s\) for "policy"/m)
    expect(run.stdout).toMatch(
      new RegExp(`^echoes: ${rules.length} contract violation\\(s\\) in its reply:$`, 'm'),
    )
    for (const rule of ['unparsable_json', 'missing_field']) {
      expect(run.stdout).toMatch(new RegExp(`^  ${rule} at \\S*: .+$`, 'm'))
    }
  })
})
