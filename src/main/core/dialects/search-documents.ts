import type { ToolInfo } from '#shared/model/server'
import { isRecord } from './shape'

/**
 * RAGbox (spec 003) and the VTEX IO server (spec 004) both call their search tool
 * `search_documents`. They are told apart by what else they show:
 * - ragbox signals: a companion tool (`query_knowledge`, `get_document`, `list_documents`) or a
 *   `privilege_mode` parameter on `search_documents`;
 * - vtex signals: a `category`, `tags` or `author` parameter on `search_documents`.
 * Any ragbox signal means ragbox (its companion tools are specific; a filter parameter is not);
 * vtex needs a vtex signal and no ragbox signal. With neither, the server is left undetected and
 * the admin sets `dialect` in the config.
 */

export const SEARCH_DOCUMENTS = 'search_documents'
export const RAGBOX_COMPANIONS = ['query_knowledge', 'get_document', 'list_documents'] as const
export const RAGBOX_PARAMS = ['privilege_mode'] as const
export const VTEX_PARAMS = ['category', 'tags', 'author'] as const

export interface SearchDocumentsSignals {
  /** The server lists `search_documents`. */
  present: boolean
  /** Ragbox signals found (tool names and parameter names). */
  ragbox: string[]
  /** Vtex signals found (parameter names). */
  vtex: string[]
}

/** The input-schema property names of a tool, or [] when it declares none. */
export function schemaProperties(tool: ToolInfo | undefined): string[] {
  const schema = tool?.inputSchema
  if (!isRecord(schema) || !isRecord(schema.properties)) return []
  return Object.keys(schema.properties)
}

export function searchDocumentsSignals(tools: ToolInfo[]): SearchDocumentsSignals {
  const search = tools.find((tool) => tool.name === SEARCH_DOCUMENTS)
  const params = schemaProperties(search)
  const names = new Set(tools.map((tool) => tool.name))
  return {
    present: search !== undefined,
    ragbox: [
      ...RAGBOX_COMPANIONS.filter((name) => names.has(name)),
      ...RAGBOX_PARAMS.filter((param) => params.includes(param)),
    ],
    vtex: VTEX_PARAMS.filter((param) => params.includes(param)),
  }
}
