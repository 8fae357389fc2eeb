/** The dialect adapters: one normalized model over the RAG server families. */
export { DIALECTS, adapterFor, detect } from './registry'
export { mapRagboxError } from './ragbox'
export { searchPhrases } from './rag-search'
export { withUsername } from './rag-tools-v1'
export type {
  DescribeOutput,
  DetectResult,
  DialectAdapter,
  DialectCapabilities,
  DiscoverOutput,
  SearchInput,
  SearchOutput,
  SynthesisInput,
} from './types'
