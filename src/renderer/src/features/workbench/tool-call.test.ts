import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import { formOf } from './schema-form'
import {
  argumentsFromJson,
  callRequest,
  draftFromJson,
  jsonOf,
  problemsOf,
  timeoutOf,
} from './tool-call'

const form = formOf({
  type: 'object',
  properties: { query: { type: 'string' }, limit: { type: 'integer' } },
  required: ['query'],
})

describe('the timeout as typed', () => {
  it('leaves an empty timeout to the server', () => {
    expect(timeoutOf('  ')).toEqual({ ms: undefined, error: undefined })
  })

  it('takes whole milliseconds from 100 to 600000 and refuses anything else', () => {
    expect(timeoutOf('100')).toEqual({ ms: 100, error: undefined })
    expect(timeoutOf('600000')).toEqual({ ms: 600_000, error: undefined })
    for (const text of ['99', '600001', '1.5', 'soon']) {
      expect(timeoutOf(text).error).toBe('A whole number of milliseconds from 100 to 600000')
    }
  })
})

describe('what a call sends', () => {
  it('sends the timeout only when one was typed', () => {
    expect(callRequest('s', 'search', { query: 'vpn' }, 'c1', undefined)).toEqual({
      server: 's',
      tool: 'search',
      arguments: { query: 'vpn' },
      callId: 'c1',
    })
    expect(callRequest('s', 'search', {}, 'c1', 5000)).toMatchObject({ timeoutMs: 5000 })
  })
})

describe('the JSON tab', () => {
  it('reads an object, and an empty text as no arguments', () => {
    expect(argumentsFromJson('{"query":"vpn"}')).toEqual({ args: { query: 'vpn' } })
    expect(argumentsFromJson('')).toEqual({ args: {} })
  })

  it('says why text that is not a JSON object cannot be the arguments', () => {
    for (const text of ['[1]', 'null', '5']) {
      expect(argumentsFromJson(text)).toEqual({
        problem: { path: '', message: 'the arguments must be a JSON object' },
      })
    }
    expect(argumentsFromJson('{"query":')).toEqual({
      problem: { path: '', message: expect.any(String) as string },
    })
  })

  it('goes from the form to JSON and back', () => {
    const draft = draftFromJson(form, '{"query":"vpn","limit":3}')
    expect(draft).toBeDefined()
    expect(JSON.parse(jsonOf(form, draft!))).toEqual({ query: 'vpn', limit: 3 })
  })

  it('keeps the form as it is when the JSON does not parse', () => {
    expect(draftFromJson(form, '{"query":')).toBeUndefined()
  })
})

describe('a failed call', () => {
  it('takes the argument problems the core named, and none from other errors', () => {
    const problems = [{ path: 'query', message: 'is required' }]
    const refused = new ConsoleError({
      code: 'invalid_argument',
      message: 'The arguments do not fit.',
      details: { problems },
    })
    expect(problemsOf(refused)).toEqual(problems)
    expect(problemsOf(new Error('boom'))).toEqual([])
    expect(problemsOf(new ConsoleError({ code: 'timeout', message: 'late' }))).toEqual([])
  })
})
