import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { registryJsonSchema } from '#shared/config/json-schema'
import { repoRoot } from '#test/support/process/built'

const SCHEMA_FILE = join(repoRoot, 'resources', 'rag-mcp.schema.json')
const REGENERATE = 'UPDATE_SCHEMA=1 npx vitest run src/main/core/config/json-schema.test.ts'

function committed(): string | undefined {
  try {
    return readFileSync(SCHEMA_FILE, 'utf8')
  } catch {
    return undefined
  }
}

describe('resources/rag-mcp.schema.json', () => {
  const generated = `${JSON.stringify(registryJsonSchema(), null, 2)}\n`

  it('matches the zod schema (regenerate with UPDATE_SCHEMA=1)', () => {
    if (process.env.UPDATE_SCHEMA === '1') writeFileSync(SCHEMA_FILE, generated)
    const current = committed()
    expect(current, `resources/rag-mcp.schema.json is missing: run ${REGENERATE}`).toBeDefined()
    expect(current === generated, `resources/rag-mcp.schema.json is stale: run ${REGENERATE}`).toBe(
      true,
    )
  })

  it('defines the entry once and uses it in all three file forms', () => {
    const schema = registryJsonSchema() as {
      properties: Record<string, { additionalProperties?: unknown }>
      additionalProperties: unknown
      $defs: { ServerEntry: { properties: Record<string, unknown> } }
    }
    const entry = { $ref: '#/$defs/ServerEntry' }
    expect(Object.keys(schema.$defs.ServerEntry.properties)).toEqual(
      expect.arrayContaining(['transport', 'url', 'command', 'headers', 'launch', 'dataSources']),
    )
    expect(schema.additionalProperties).toEqual(entry)
    expect(schema.properties.mcpServers!.additionalProperties).toEqual(entry)
    expect(schema.properties.servers!.additionalProperties).toEqual(entry)
  })
})
