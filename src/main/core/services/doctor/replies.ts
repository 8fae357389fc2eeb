import type { ToolInfo } from '#shared/model/server'
import { isRecord, Violations } from '../../dialects/shape'
import { structuredOrText } from '../../dialects/payload'
import type { RawToolResult } from '../../pool/types'

/** A listed tool by name. */
export const toolNamed = (tools: ToolInfo[], name: string): ToolInfo | undefined =>
  tools.find((tool) => tool.name === name)

/** A tool's input schema properties and required names (empty when it declares none). */
export function schemaOf(tool: ToolInfo | undefined): {
  properties: Record<string, Record<string, unknown>>
  required: string[]
} {
  const schema = isRecord(tool?.inputSchema) ? tool.inputSchema : {}
  const properties = isRecord(schema.properties)
    ? (schema.properties as Record<string, Record<string, unknown>>)
    : {}
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : []
  return { properties, required }
}

/** The JSON a tool result carries: `structuredContent`, else its text block parsed. */
export function payloadOf(result: RawToolResult | undefined): Record<string, unknown> | undefined {
  if (!result) return undefined
  const value = structuredOrText(result, new Violations())?.value
  return isRecord(value) ? value : undefined
}

/** Names missing from a list of tools. */
export const missingTools = (tools: ToolInfo[], names: readonly string[]): string[] =>
  names.filter((name) => !toolNamed(tools, name))

/** A user no server's directory knows, to see what a stranger is given. */
export const STRANGER = {
  userId: 'doctor-probe-stranger@invalid',
  sessionTags: [] as string[],
  groups: [] as string[],
}
