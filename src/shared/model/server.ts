import type { ErrorCode, ErrorInfo } from '../errors'
import type { OAuthStatus } from '../ipc/auth'
import type { SearchSuggestion } from './mapping'

export type Transport = 'http' | 'sse' | 'stdio'

export const DIALECT_IDS = ['rag-search', 'rag-tools-v1', 'ragbox', 'vtex', 'generic'] as const
export type DialectId = (typeof DIALECT_IDS)[number]

/** Connection state of one server; every change is sent to the renderer as an event. */
export type ServerStatus =
  | { state: 'connecting'; since: number; attempt: number }
  | { state: 'ready'; since: number }
  | { state: 'degraded'; since: number; reason: string; lastError?: ErrorInfo }
  | {
      state: 'down'
      since: number
      lastError: ErrorInfo
      attempt: number
      /** Epoch ms of the next automatic retry, if one is scheduled. */
      nextRetryAt?: number
    }
  | {
      state: 'action_required'
      since: number
      reason: string
      /** Secret names (as written in `${keychain:NAME}`) that must be set. */
      missingSecrets?: string[]
      /** Variables (`${env:VAR}`) missing from the console's environment: set them, restart. */
      missingEnv?: string[]
      /** Session-only tokens (`${session:NAME}`) not given in this session yet. */
      missingSessionTokens?: string[]
      /** The server uses OAuth and nobody is signed in (or the tokens were refused): sign in. */
      signInRequired?: boolean
      lastError?: ErrorInfo
    }
  | { state: 'disabled'; since: number }

export type ServerState = ServerStatus['state']

/** What a server said about itself when it connected. */
export interface ServerInfo {
  name?: string
  version?: string
  /** Spec 004's non-standard `handshake` answer. */
  handshake?: unknown
  /**
   * The capabilities its `initialize` result declared (`tools`, `resources`, `prompts`,
   * `logging`, …); absent when it was talked to without the handshake (nothing is known).
   */
  capabilities?: string[]
}

export interface ToolInfo {
  name: string
  description?: string
  inputSchema?: unknown
  /** The hints the server gave about the tool (MCP `ToolAnnotations`); untrusted, never a guarantee. */
  annotations?: ToolHints
}

/** A tool's behaviour hints as listed: only the booleans the console acts on. */
export interface ToolHints {
  /** The tool does not change its environment. */
  readOnlyHint?: boolean
  /** The tool may destroy or overwrite data (meaningful when not read-only). */
  destructiveHint?: boolean
}

/** Which dialect a server speaks and why the console thinks so. */
export interface DialectInfo {
  id: DialectId | null
  source: 'config' | 'detected'
  /** Why it was chosen, or why none fits ("not a RAG server: …"). */
  reason: string
}

export interface RateLimitInfo {
  limit?: number
  remaining?: number
  /** Epoch seconds, as servers send it. */
  reset?: number
  at: number
}

export interface LatencyStats {
  count: number
  p50: number
  p95: number
  p99: number
  max: number
}

/** One time slice of an operation's calls, for the latency and error charts. */
export interface LatencyBucket {
  /** Epoch ms when the slice starts. */
  at: number
  /** Calls that ended in the slice (cancellations included). */
  calls: number
  /** Failed calls by code (cancellations included, as `cancelled`). */
  errors: Partial<Record<ErrorCode, number>>
  /** Latency quantiles of the slice's successful calls; absent when none succeeded. */
  latency?: { p50: number; p95: number; p99: number }
}

export interface OperationHealth {
  /** `search`, `discover`, `synthesize`, `verify`, `ping`, `tools/list`, … */
  operation: string
  latency: LatencyStats
  calls: number
  errors: Partial<Record<ErrorCode, number>>
  errorRate: number
  lastSuccessAt?: number
  lastErrorAt?: number
  lastError?: ErrorInfo
  /** Fixed-width time slices, oldest first, only those with calls (a longer view than the window). */
  series: LatencyBucket[]
  /**
   * The console's own diagnostics (Doctor): left out of the server's `overall` figures and of
   * its degraded state; an error a probe asked for counts as a success.
   */
  diagnostic?: true
}

/** One point of the latency time series drawn by the Health panel. */
export interface LatencySample {
  at: number
  operation: string
  ms: number
  ok: boolean
}

export interface ServerHealth {
  server: string
  status: ServerStatus
  /**
   * Share of the time since the server's state was first known (first connect or first
   * failure) that it was ready or degraded, 0..1; absent while nothing is known yet.
   */
  uptime?: number
  connectedSince?: number
  operations: OperationHealth[]
  overall: OperationHealth
  rateLimit?: RateLimitInfo
  lastCheckAt?: number
  recent: LatencySample[]
  /** Width of the time slices in each operation's `series`. */
  seriesBucketMs: number
  /**
   * The sliding window of `errorRate` and `latency` (and of `degraded`); `calls` and `errors`
   * count since the console started.
   */
  windowMs: number
}

/** What the Servers panel and `rag-console servers` show for each configured server. */
export interface ServerSummary {
  id: string
  description?: string
  enabled: boolean
  transport: Transport
  /** Redacted: secret references shown as written, never resolved. */
  url?: string
  command?: string
  /** A stdio server's arguments, plaintext-looking secrets masked. */
  args?: string[]
  groups: string[]
  ui: {
    icon?: string | undefined
    order?: number | undefined
    defaultSelected?: boolean | undefined
  }
  /** File the entry came from. */
  origin: string
  dialect: DialectInfo
  status: ServerStatus
  tools: ToolInfo[]
  /**
   * A server of no known family whose tools look like search: the tools it could be mapped
   * with, best first (a suggestion only; nothing is called or applied).
   */
  searchable?: SearchSuggestion[]
  serverInfo?: ServerInfo
  latency?: { p50: number; p95: number }
  rateLimit?: RateLimitInfo
  lastCheckAt?: number
  /** Whether the active profile's groups may see this server (`groups` in its entry). */
  visible: boolean
  /** Keychain secret names its config references: set, missing, or unknown (keychain locked). */
  secrets: { name: string; present: boolean | null }[]
  /** OAuth sign-in state (HTTP / SSE servers); absent for stdio servers. */
  oauth?: OAuthStatus
}
