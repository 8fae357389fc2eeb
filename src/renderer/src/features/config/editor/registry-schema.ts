import schemaJson from '#resources/rag-mcp.schema.json'
import type { JsonSchema } from './schema-completion'

/** The generated JSON Schema of rag-mcp.json, which drives the editor's completion. */
export const registrySchema = schemaJson as JsonSchema
