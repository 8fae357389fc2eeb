import { describe, expect, it } from 'vitest'
import type { ElicitField } from '#shared/model/elicitation'
import { answerOf, draftOf } from './form-draft'

const fields: ElicitField[] = [
  { name: 'name', kind: 'string', required: true, default: 'Ada' },
  { name: 'email', kind: 'string', required: false, format: 'email' },
  { name: 'age', kind: 'number', integer: true, required: false, minimum: 0 },
  { name: 'ok', kind: 'boolean', required: false },
  {
    name: 'tier',
    kind: 'enum',
    required: true,
    options: [
      { value: 'gold', label: 'Gold' },
      { value: 'free', label: 'Free' },
    ],
  },
  {
    name: 'tags',
    kind: 'multi',
    required: false,
    options: [{ value: 'a', label: 'A' }],
    default: ['a'],
  },
]

describe('elicitation form drafts', () => {
  it('open with the defaults, empty elsewhere', () => {
    expect(draftOf(fields)).toEqual({
      name: 'Ada',
      email: '',
      age: '',
      ok: false,
      tier: '',
      tags: ['a'],
    })
  })

  it('answer with typed values, leaving empty optional fields out', () => {
    const draft = { ...draftOf(fields), age: ' 42 ', tier: 'gold' }
    expect(answerOf(fields, draft)).toEqual({
      content: { name: 'Ada', age: 42, ok: false, tier: 'gold', tags: ['a'] },
      problems: {},
    })
  })

  it('name what is wrong, field by field', () => {
    const draft = { ...draftOf(fields), name: '  ', email: 'nope', age: '4.5', tier: '' }
    expect(answerOf(fields, draft).problems).toEqual({
      name: 'Required',
      email: 'Must be a valid email',
      age: 'Must be a whole number',
      tier: 'Required',
    })
    expect(answerOf(fields, { ...draft, age: 'abc' }).problems.age).toBe('Must be a number')
  })
})
