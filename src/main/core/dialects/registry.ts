import type { DialectSetting, ServerConfig } from '#shared/config/schema'
import type { DialectId, DialectInfo, ToolInfo } from '#shared/model/server'
import { genericAdapter } from './generic'
import { ragSearchAdapter } from './rag-search'
import { ragToolsV1Adapter } from './rag-tools-v1'
import { ragboxAdapter } from './ragbox'
import { searchDocumentsSignals, RAGBOX_COMPANIONS, VTEX_PARAMS } from './search-documents'
import { isRecord } from './shape'
import type { CallOptions, ServerSession } from '../pool/types'
import type { DialectAdapter } from './types'
import { vtexAdapter } from './vtex'

/**
 * Every dialect, in detection order: the first whose `detect` matches wins. The families'
 * signature tools do not overlap (rag_search / rag_get_raw_results / search_documents, with
 * ragbox and vtex told apart in `search-documents.ts`), so the order only matters for a server
 * that implements two families at once; the reason then names the other. `generic` never
 * matches on its own: it needs a mapping in the config.
 */
export const DIALECTS: readonly DialectAdapter[] = [
  ragSearchAdapter,
  ragToolsV1Adapter,
  ragboxAdapter,
  vtexAdapter,
  genericAdapter,
]

/**
 * The call options that make the pool classify a failure as the server's dialect would, for
 * calls made by hand (Workbench, `rag-console call`): empty when the dialect has no judge.
 */
export function dialectJudges(session: ServerSession): Pick<CallOptions, 'judgeError'> {
  const id = detect(session.tools, session.config.dialect).id
  const judge = id === null ? undefined : adapterFor(id).judgeError
  return judge ? { judgeError: (error) => judge(error, session.serverId) } : {}
}

/**
 * Whether a server gets the acting user's identity headers: as its entry's `identityHeaders`
 * says, else when its family (set, or detected from its tools) defines them. Before its tools
 * are known, a server of no configured family gets none.
 */
export function sendsIdentity(
  config: Pick<ServerConfig, 'identityHeaders' | 'dialect'>,
  tools: ToolInfo[],
): boolean {
  if (config.identityHeaders !== undefined) return config.identityHeaders
  const id = detect(tools, config.dialect).id
  return id !== null && adapterFor(id).identityHeaders === true
}

/** The adapter for a dialect id. */
export function adapterFor(id: DialectId): DialectAdapter {
  const adapter = DIALECTS.find((candidate) => candidate.id === id)
  if (!adapter) throw new Error(`no adapter for dialect ${id}`)
  return adapter
}

const MAX_LISTED_TOOLS = 8

function toolList(tools: ToolInfo[]): string {
  if (tools.length === 0) return 'it lists no tools'
  const names = tools.slice(0, MAX_LISTED_TOOLS).map((tool) => tool.name)
  const more = tools.length > MAX_LISTED_TOOLS ? `, … (${tools.length} in all)` : ''
  return `it lists ${names.join(', ')}${more}`
}

function fromConfig(tools: ToolInfo[], setting: Exclude<DialectSetting, 'auto'>): DialectInfo {
  if (isRecord(setting)) {
    const tool = setting.search.tool
    const listed = tools.some((candidate) => candidate.name === tool)
    return {
      id: 'generic',
      source: 'config',
      reason: listed
        ? `config maps tool ${tool} to search`
        : `config maps tool ${tool} to search, but the server does not list ${tool}`,
    }
  }
  if (setting === 'generic') {
    return {
      id: 'generic',
      source: 'config',
      reason:
        'set to generic in config, but it has no search mapping ({ "search": { "tool": … } })',
    }
  }
  const fit = adapterFor(setting).detect(tools)
  return {
    id: setting,
    source: 'config',
    reason: fit.matches
      ? `set in config (${fit.reason})`
      : `set in config, although its tools do not fit ${setting} (${fit.reason})`,
  }
}

/** Answers given so far, per tools list (a connection's list is replaced, never changed). */
const detected = new WeakMap<ToolInfo[], Map<DialectSetting, Readonly<DialectInfo>>>()

/**
 * Which dialect a server speaks, from its `tools/list` and the config's `dialect` setting (which
 * wins when it is not `auto`). Pure, so worked out once per list and setting: every call of a
 * fan-out asks, before its request can leave (every adapter's detection, 1–2 µs warm; 0.2–0.6 ms
 * per 100-server search in the scale bench's profile). A server that fits none gets `id: null`
 * and the reason.
 */
export function detect(tools: ToolInfo[], setting: DialectSetting = 'auto'): Readonly<DialectInfo> {
  let known = detected.get(tools)
  if (!known) detected.set(tools, (known = new Map()))
  let info = known.get(setting)
  if (!info) known.set(setting, (info = Object.freeze(detectNow(tools, setting))))
  return info
}

function detectNow(tools: ToolInfo[], setting: DialectSetting): DialectInfo {
  if (setting !== 'auto') return fromConfig(tools, setting)
  const matches = DIALECTS.map((adapter) => ({ adapter, result: adapter.detect(tools) })).filter(
    (candidate) => candidate.result.matches,
  )
  const [first, ...others] = matches
  if (first) {
    const also = others.length
      ? `; also fits ${others.map((o) => o.adapter.id).join(', ')} (set "dialect" to choose)`
      : ''
    return { id: first.adapter.id, source: 'detected', reason: `${first.result.reason}${also}` }
  }
  const signals = searchDocumentsSignals(tools)
  if (signals.present) {
    return {
      id: null,
      source: 'detected',
      reason:
        `not a RAG server the console can tell apart: search_documents without RAGbox's ` +
        `${RAGBOX_COMPANIONS.join('/')} tools or vtex's ${VTEX_PARAMS.join('/')} parameters; ` +
        `set "dialect" to "ragbox" or "vtex" in rag-mcp.json`,
    }
  }
  return {
    id: null,
    source: 'detected',
    reason:
      `not a RAG server: no rag_search, rag_get_raw_results or search_documents tool ` +
      `(${toolList(tools)}); it is not a search source until you map one of its tools to search with a generic "dialect": { "search": … }`,
  }
}
