/** Error codes of spec 002, reported in `results.error`. */
export type ErrorCode =
  | 'unauthorized_user'
  | 'unauthorized_source'
  | 'rate_limited'
  | 'invalid_source'
  | 'backend_unavailable'
  | 'token_expired'

/** One error, for one source when `source` is set. */
export interface SourceError {
  code: ErrorCode
  message: string
  source?: string
}

/** The v2 envelope every tool returns. */
export interface Envelope {
  results: Record<string, unknown>
  meta_data: Record<string, unknown>
  artifacts?: Array<{ name: string; mime: string; b64: string }>
}

/** Arguments of `rag_get_raw_results` (spec 002). */
export interface SearchArgs {
  username: string
  query: string
  sources?: string[]
  top_k?: number
  filters?: { date_from?: string; date_to?: string; tags?: string[]; owners?: string[] }
  ranking?: { rerank?: boolean; model?: string }
  capability_token?: string
}

/** Arguments of `rag_get_synthesized_results` (spec 002). */
export interface SynthesisArgs extends Omit<SearchArgs, 'filters' | 'ranking'> {
  synthesis_params?: { model?: string; style?: string; max_chars?: number }
  provided_context?: { hits?: unknown[] }
}
