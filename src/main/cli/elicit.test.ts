import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { ElicitationRequest } from '#core/pool/elicitation'
import { parseForm } from '#shared/model/elicitation'
import { askForm, elicitHandler, elicitModeOf } from './elicit'

function request(schema: unknown): ElicitationRequest {
  const form = parseForm(schema)
  if (!form.ok) throw new Error(form.error)
  return { serverId: 'docs', message: 'Who are you?', fields: form.value }
}

const PROFILE = request({
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name' },
    age: { type: 'integer', minimum: 0, default: 30 },
    team: { type: 'string', enum: ['search', 'infra'] },
    remote: { type: 'boolean' },
  },
  required: ['name'],
})

/** Runs `askForm` on typed lines; returns the answer and everything shown on stderr. */
async function typed(lines: string[], end = true) {
  const input = new PassThrough()
  const output = new PassThrough()
  let shown = ''
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()))
  input.write(lines.map((line) => `${line}\n`).join(''))
  if (end) input.end()
  const answer = await askForm(PROFILE, { input, output }, new AbortController().signal)
  return { answer, shown }
}

describe('--elicit', () => {
  it('asks at a terminal and offers nothing elsewhere when not given', () => {
    expect(elicitModeOf(undefined, true)).toBe('ask')
    expect(elicitModeOf(undefined, false)).toBeNull()
    expect(elicitModeOf('cancel', false)).toBe('cancel')
  })

  it('accept-defaults declines a form with a required field without default, saying why', async () => {
    const warnings: string[] = []
    const handler = elicitHandler('accept-defaults', (message) => warnings.push(message))
    expect(await handler(PROFILE, new AbortController().signal)).toEqual({ action: 'decline' })
    expect(warnings).toEqual([expect.stringMatching(/^docs asked for name, which have no default/)])
  })

  it('ask: fills in typed values, takes defaults on blank lines and asks again after a bad one', async () => {
    const { answer, shown } = await typed(['', 'Ada', 'old', '', 'infra', 'yes'])
    expect(answer).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 30, team: 'infra', remote: true },
    })
    expect(shown).toMatch(/docs asks: Who are you\?/)
    expect(shown).toMatch(/name "Full name" \(string, required\)/)
    expect(shown).toMatch(/age \(integer\) \[30\]/)
    expect(shown).toMatch(/age must be a number/)
  })

  it('ask: a required field left blank is asked again', async () => {
    const { answer, shown } = await typed(['a', '', 'Ada', '', '', ''])
    expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', age: 30 } })
    expect(shown).toMatch(/name is required/)
  })

  it.each([
    ['d', 'decline'],
    ['cancel', 'cancel'],
  ])('ask: "%s" answers %s', async (choice, action) => {
    expect((await typed([choice])).answer).toEqual({ action })
  })

  it('ask: the end of input cancels', async () => {
    expect((await typed(['a', 'Ada'])).answer).toEqual({ action: 'cancel' })
  })

  it('ask: a form whose call was already cancelled is cancelled without a question', async () => {
    // Nobody types: before, the question waited for a line that never came.
    const input = new PassThrough()
    const output = new PassThrough()
    let shown = ''
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()))
    const answer = await askForm(PROFILE, { input, output }, AbortSignal.abort())
    expect(answer).toEqual({ action: 'cancel' })
    expect(shown).toBe('')
  }, 10_000)
})
