import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliHome, json, runCli } from '#test/support/cli/run-cli'

/** `call --elicit`: who answers the form a stdio server asks for while a tool runs. */

const ASKER = fileURLToPath(
  new URL('../../../test/fixtures/pool/elicit-stdio-server.mjs', import.meta.url),
)
const stdio = [process.execPath, ASKER].map((word) => JSON.stringify(word)).join(' ')

let home: string
beforeAll(() => {
  home = cliHome()
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

/** Runs `call … --tool ask` for a form; returns what the server's elicitation came back with. */
async function ask(form: string, flags: string[], input?: string) {
  const args = ['--json', 'call', '--stdio', stdio, '--tool', 'ask', '--args', `{"form":"${form}"}`]
  const run = await runCli([...args, ...flags], home, input === undefined ? {} : { input })
  expect(run.code).toBe(0)
  const text = json<{ content: { text: string }[] }>(run).content[0]!.text
  return { answer: JSON.parse(text) as Record<string, unknown>, stderr: run.stderr }
}

describe('call --elicit against a stdio server that asks for a form', () => {
  it('accept-defaults answers with the schema defaults', async () => {
    const { answer } = await ask('defaults', ['--elicit', 'accept-defaults'])
    expect(answer).toEqual({
      action: 'accept',
      content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    })
  })

  it('accept-defaults declines a required field without default and says so on stderr', async () => {
    const { answer, stderr } = await ask('required', ['--elicit', 'accept-defaults'])
    expect(answer).toEqual({ action: 'decline' })
    expect(stderr).toMatch(/command-line asked for name, which have no default: declined/)
  })

  it('cancel answers cancel', async () => {
    expect((await ask('defaults', ['--elicit', 'cancel'])).answer).toEqual({ action: 'cancel' })
  })

  it('ask reads the answers from stdin, prompting on stderr', async () => {
    const { answer, stderr } = await ask('required', ['--elicit', 'ask'], 'a\nAda\n\n')
    expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', team: 'search' } })
    expect(stderr).toMatch(/command-line asks: Please fill in the required form/)
  })

  it('without --elicit and no terminal, offers no elicitation (the server gets an error)', async () => {
    const { answer } = await ask('defaults', [])
    expect(answer).toMatchObject({ error: { code: -32601 } })
  })

  it('refuses an unknown mode (exit 2)', async () => {
    const run = await runCli(['tools', '--stdio', stdio, '--elicit', 'maybe'], home)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/--elicit must be one of ask, accept-defaults, decline, cancel/)
  })
})
