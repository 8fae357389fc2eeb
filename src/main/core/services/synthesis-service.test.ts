import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureEntry, startCore, whenState, type LiveCore } from '#test/support/core/live'

/** Synthesis in both modes against fixture servers over stdio. */
let live: LiveCore

beforeAll(async () => {
  live = await startCore({
    writer: fixtureEntry(['--name', 'writer', '--synth']),
    plain: fixtureEntry(['--name', 'plain', '--hits', '3']),
  })
  await whenState(live.core, ['writer', 'plain'])
})

afterAll(() => live?.close())

describe('synthesis', () => {
  it("uses a server's own synthesis tool and builds a client answer for one without", async () => {
    const result = await live.core.services.synthesis.run({
      query: 'vpn setup',
      selection: { writer: [], plain: [] },
    })
    const [writer, plain] = result.answers
    expect(writer).toMatchObject({ server: 'writer', ok: true })
    expect(writer?.answer).toMatchObject({
      mode: 'server',
      text: 'writer says: vpn setup is covered by two documents.',
    })
    expect(writer?.answer?.citations.map((c) => c.n)).toEqual([1, 2])
    expect(plain).toMatchObject({ server: 'plain', ok: true })
    expect(plain?.answer?.mode).toBe('client')
    expect(plain?.answer?.text).toMatch(/^Document 0 of plain explains vpn setup\. \[1\]/)
    expect(plain?.answer?.citations[0]).toMatchObject({
      n: 1,
      server: 'plain',
      hitId: 'plain-0',
      uri: 'https://docs.example/plain/0',
    })
  })

  it('audits a client answer as the search call it was built from', async () => {
    await live.core.services.synthesis.run({ query: 'printer', selection: { plain: [] } })
    await live.core.services.idle()
    const line = live
      .auditLines()
      .filter((l) => l.server === 'plain' && l.operation === 'synthesize')
      .at(-1)
    expect(line).toMatchObject({ tool: 'rag_get_raw_results', outcome: 'ok' })
  })
})
