import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { goldenSetJsonSchema } from '#shared/model/golden-set-schema'
import { repoRoot } from '#test/support/process/built'

const SCHEMA_FILE = join(repoRoot, 'docs', 'golden-set.schema.json')
const REGENERATE = 'UPDATE_SCHEMA=1 npx vitest run src/main/core/services/eval/json-schema.test.ts'

describe('docs/golden-set.schema.json', () => {
  const generated = `${JSON.stringify(goldenSetJsonSchema(), null, 2)}\n`

  it('matches the zod schema the console validates sets with (regenerate with UPDATE_SCHEMA=1)', () => {
    if (process.env.UPDATE_SCHEMA === '1') writeFileSync(SCHEMA_FILE, generated)
    let current: string | undefined
    try {
      current = readFileSync(SCHEMA_FILE, 'utf8')
    } catch {
      current = undefined
    }
    expect(
      current === generated,
      `docs/golden-set.schema.json is stale or missing: run ${REGENERATE}`,
    ).toBe(true)
  })

  it('describes queries, graded judgments and their aliases', () => {
    const schema = goldenSetJsonSchema() as {
      required: string[]
      properties: {
        queries: {
          items: {
            properties: {
              judgments: { items: { properties: Record<string, unknown>; required: string[] } }
            }
          }
        }
      }
    }
    expect(schema.required).toEqual(expect.arrayContaining(['version', 'id', 'name', 'queries']))
    const judgment = schema.properties.queries.items.properties.judgments.items
    expect(Object.keys(judgment.properties)).toEqual(['docKey', 'aliases', 'grade', 'title', 'uri'])
    expect(judgment.required).toEqual(['docKey', 'grade'])
  })
})
