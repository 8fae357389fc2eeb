/** One problem found in a registry file, located for a person to fix. */
export interface Diagnostic {
  severity: 'error' | 'warning'
  /** Absolute path of the file, or a label such as "embedded default". */
  file: string
  /** Dotted JSON path, e.g. `docsRag.transport`; empty for the whole document. */
  path: string
  /** 1-based. */
  line: number
  /** 1-based. */
  column: number
  message: string
  /** Stable rule id, e.g. `invalid_enum`, `unknown_field`, `plaintext_secret`. */
  rule: string
}

export type RegistrySourceKind = 'file' | 'layered' | 'embedded'

/** Where the running registry came from. */
export interface RegistrySource {
  kind: RegistrySourceKind
  /** Files in use, lowest precedence first (defaults before overrides). */
  files: string[]
  /** The file that saves from the app go to, if any. */
  writableFile?: string
  /** Short label for the UI and CLI, e.g. a path or "demo registry". */
  label: string
}

export interface RegistryDiff {
  added: string[]
  removed: string[]
  changed: string[]
  unchanged: string[]
  /** Per changed server, the fields that changed (absent where not worked out). */
  fields?: Record<string, FieldChange[]>
}

/** One field of a server's entry that an edit changed; plaintext-looking secrets are masked. */
export interface FieldChange {
  /** Dotted path in the entry, e.g. `timeoutMs`, `headers.Authorization`. */
  path: string
  /** The value before, as JSON text; absent when the field was not set. */
  before?: string
  /** The value after, as JSON text; absent when the field is gone. */
  after?: string
}

export type ReloadTrigger = 'startup' | 'watch' | 'manual' | 'save' | 'import'

/** A canary's run right after the reload that touched its server. */
export interface ReloadCanary {
  server: string
  canary: string
  passed: boolean
  /** It passed before this reload and fails after it: the reload's diff caused it. */
  regression: boolean
  /** What did not hold, in words. */
  failures: string[]
}

/** One entry of the reload history (the last 50 are kept). */
export interface ReloadEvent {
  at: number
  trigger: ReloadTrigger
  outcome: 'applied' | 'invalid'
  durationMs: number
  source: RegistrySource
  diff?: RegistryDiff
  diagnostics?: Diagnostic[]
  /** Canaries of the added and changed servers, run once the reload was applied. */
  canaries?: ReloadCanary[]
}
