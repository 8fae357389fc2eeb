import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { stripUnknown, unknownFields } from './schema-walk'

const schema = z.object({
  url: z.string().optional(),
  dialect: z.union([z.string(), z.object({ search: z.string().optional() })]).optional(),
})

describe('schema walk', () => {
  it('names fields the schema does not declare, at any depth', () => {
    expect(unknownFields(schema, { url: 'x', urls: 1, dialect: { serch: 'q' } })).toEqual([
      { path: ['urls'], known: ['url', 'dialect'] },
      { path: ['dialect', 'serch'], known: ['search'] },
    ])
  })

  it('takes fields named like Object.prototype members as unknown, not as schemas', () => {
    // Found by the registry fuzz test: `{"dialect": {"valueOf": ""}}` crashed the load.
    for (const name of ['valueOf', 'constructor', 'toString', 'hasOwnProperty']) {
      const value = { dialect: { [name]: '' }, [name]: 1 }
      expect(unknownFields(schema, value).map((f) => f.path)).toEqual([['dialect', name], [name]])
      expect(stripUnknown(schema, value)).toEqual({ dialect: {} })
    }
  })
})
