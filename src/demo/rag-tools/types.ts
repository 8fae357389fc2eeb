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
  sources?: string[] | undefined
  top_k?: number | undefined
  filters?:
    | {
        date_from?: string | undefined
        date_to?: string | undefined
        tags?: string[] | undefined
        owners?: string[] | undefined
      }
    | undefined
  ranking?: { rerank?: boolean | undefined; model?: string | undefined } | undefined
  capability_token?: string | undefined
}

/** Arguments of `rag_get_synthesized_results` (spec 002). */
export interface SynthesisArgs extends Omit<SearchArgs, 'filters' | 'ranking'> {
  synthesis_params?:
    | { model?: string | undefined; style?: string | undefined; max_chars?: number | undefined }
    | undefined
  provided_context?: { hits?: unknown[] | undefined } | undefined
}
