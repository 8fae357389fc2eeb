import { z } from 'zod'
import { registryFileSchema, serverEntrySchema } from './schema'

/**
 * The JSON Schema of rag-mcp.json for editors (VS Code, the console's own editor), generated
 * from the same zod schema the console validates with. Committed as
 * `resources/rag-mcp.schema.json`; a test fails when that file is stale.
 */
export function registryJsonSchema(): Record<string, unknown> {
  // The entry appears in all three file forms: define it once under $defs.
  const names = z.registry<{ id: string }>()
  names.add(serverEntrySchema, { id: 'ServerEntry' })
  const schema = z.toJSONSchema(registryFileSchema, { io: 'input', metadata: names })
  return { ...schema, title: 'RAG Console server registry (rag-mcp.json)' }
}
