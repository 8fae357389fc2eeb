import { z } from 'zod'
import type { RegistryForm } from '../config/document'
import type { ServerConfig } from '../config/schema'
import type {
  Diagnostic,
  RegistryDiff,
  RegistrySource,
  ReloadCanary,
  ReloadEvent,
  ReloadTrigger,
} from '../model/registry'

/** The running registry as the UI shows it. Plaintext-looking secrets are masked. */
export interface RegistryView {
  source: RegistrySource
  /** Effective configs in display order; secret references are left unresolved. */
  servers: ServerConfig[]
  /** Effective-config hash per server id. */
  hashes: Record<string, string>
  /** Warnings of the load that produced this registry. */
  warnings: Diagnostic[]
  /** Epoch ms when this registry was applied. */
  appliedAt: number
  /** Set while the files on disk are invalid: the servers above are the last good registry. */
  invalid?: { at: number; diagnostics: Diagnostic[] }
}

/** What one reload did. `emitted` is false when the effective registry did not change. */
export interface ReloadResult {
  event: ReloadEvent
  emitted: boolean
}

/** The registry file as the editor opens it. */
export interface RawConfig {
  /** The file a save writes (for layered sources, the overrides file). */
  path: string
  exists: boolean
  /** Text to edit: the file's content, `{}` for a new file, or the embedded default. */
  text: string
  /** Content hash of `path` on disk now (of `''` when absent): pass it back as `baseHash`. */
  hash: string
  source: RegistrySource
  /** Layered sources: the files `path` is merged over, field by field per server id. */
  layeredOver: string[]
  /** True when `text` is the embedded default; saving creates `path`. */
  fromEmbedded: boolean
}

/** What saving a draft would do, without writing it. */
export interface DraftValidation {
  valid: boolean
  /** Errors and warnings, located in the draft (or in the files it is layered over). */
  diagnostics: Diagnostic[]
  /** What saving the draft would do to the running registry; null when invalid. */
  diff: RegistryDiff | null
  /**
   * `${keychain:NAME}` references of the servers the draft adds or changes that have no value
   * in the keychain (names only): such a server waits in "action required" until it is set.
   */
  missingSecrets?: { server: string; name: string }[]
}

/** The writable file now and with one server's `enabled` set (`registry:enabled-draft`). */
export interface EnabledDraft {
  raw: RawConfig
  text: string
}

/** Outcome of a save. Nothing is written unless `status` is `saved`. */
export type SaveResult =
  | {
      status: 'saved'
      path: string
      /** Content hash of the new file (the next `baseHash`). */
      hash: string
      /** The previous content, kept as `<file>.bak` beside the file (or its symlink's target). */
      backup?: string
      reload: ReloadResult
    }
  | { status: 'invalid'; path: string; diagnostics: Diagnostic[] }
  | {
      /** The file changed on disk since `baseHash`: show both, then save again with `force`. */
      status: 'conflict'
      path: string
      diskExists: boolean
      diskText: string
      diskHash: string
      proposedText: string
      /** A version that raced the save and could not be put back: kept at this path. */
      keptAt?: string
      /**
       * Why the file as read could not be the base of the edit (empty, missing or not JSON
       * where a valid registry was: another program is likely rewriting it).
       */
      untrusted?: string
    }

/** MCP clients whose config files can be imported. */
export type ImportClient = 'claude-desktop' | 'cursor' | 'vscode'

/** A config file of another MCP client found on this machine. */
export interface ImportCandidate {
  client: ImportClient
  label: string
  path: string
  exists: boolean
}

/** A secret the user must store before an imported server can connect. */
export interface RequiredSecret {
  server: string
  name: string
  reason: string
}

/** A plaintext credential of an imported file that goes to the keychain (never its value). */
export interface SecretToMove {
  server: string
  /** The keychain name its `${keychain:NAME}` reference uses. */
  name: string
  /** Where it was: `headers.Authorization`, `env.GITHUB_TOKEN`. */
  where: string
}

/** One server of an import preview. */
export interface ImportedServer {
  id: string
  status: 'added' | 'changed' | 'unchanged'
  /** The fields the import writes into the file (plaintext-looking secrets masked). */
  fields: Record<string, unknown>
  /** The server's effective config after the import (masked), when valid. */
  config?: ServerConfig
  /** Problems of this server after the import; any error blocks applying it. */
  diagnostics: Diagnostic[]
}

/** What importing a file would add or change; nothing is written. */
export interface ImportPreview {
  /** The imported file (or the name given with its text). */
  from: string
  form: RegistryForm
  /** The file the import merges into, and its hash to pass back as `baseHash`. */
  target: { path: string; hash: string; exists: boolean }
  servers: ImportedServer[]
  requiredSecrets: RequiredSecret[]
  /** Plaintext credentials that applying moves to the keychain (unless kept in plaintext). */
  secretsToMove: SecretToMove[]
  /** Problems of the imported file itself and of its conversion (ignored fields, inputs). */
  diagnostics: Diagnostic[]
}

/** A save result, plus which servers were merged, which secrets they need and which moved. */
export type ImportApplyResult = SaveResult & {
  imported: string[]
  requiredSecrets: RequiredSecret[]
  /** Stored in the keychain by this import (empty when kept in plaintext). */
  movedSecrets: SecretToMove[]
}

/** Registry files are small; anything larger is refused before parsing. */
export const MAX_CONFIG_TEXT = 2 * 1024 * 1024

const text = z.string().max(MAX_CONFIG_TEXT)

/** A file to import: by path (desktop dialog) or by content (browser upload). */
export const importSourceSchema = z
  .object({
    path: z.string().min(1).max(4096).optional(),
    text: text.optional(),
    /** Display name for `text`, e.g. the uploaded file's name. */
    name: z.string().max(256).optional(),
  })
  .refine((source) => (source.path === undefined) !== (source.text === undefined), {
    message: 'give either path or text',
  })
export type ImportSource = z.input<typeof importSourceSchema>

/** Request schemas of the `registry:*` and `config:*` channels. */
export const registryRequests = {
  /** The running registry, its source and warnings, and the current invalid state if any. */
  'registry:get': z.undefined(),
  /** Re-reads the files now. */
  'registry:reload': z.undefined(),
  /** The last 50 reloads, oldest first. */
  'registry:history': z.undefined(),
  /** Sets one server's `enabled` in the file (comments and formatting kept), then reloads. */
  'registry:set-enabled': z.object({ serverId: z.string().min(1).max(256), enabled: z.boolean() }),
  /** What `registry:set-enabled` would write, to preview; nothing is written. */
  'registry:enabled-draft': z.object({
    serverId: z.string().min(1).max(256),
    enabled: z.boolean(),
  }),
  /** The writable file's text and hash. */
  'config:read': z.undefined(),
  /** Diagnostics of a draft and the diff saving it would cause; nothing is written. */
  'config:validate': z.object({ text }),
  /** Atomic save with `.bak`; refused when invalid or when the file changed since `baseHash`. */
  'config:save': z.object({
    text,
    baseHash: z.string().max(128),
    force: z.boolean().optional(),
  }),
  /** Claude Desktop, Cursor and VS Code config files on this machine. */
  'config:import-candidates': z.undefined(),
  /** What importing a file would add or change; nothing is written. */
  'config:import-preview': importSourceSchema,
  /** Merges the file's servers (all, or `servers`) into the writable file with a safe save. */
  'config:import-apply': z.object({
    source: importSourceSchema,
    servers: z.array(z.string().max(256)).max(1000).optional(),
    baseHash: z.string().max(128),
    force: z.boolean().optional(),
    /** Write credentials found in the file as they are instead of moving them to the keychain. */
    keepPlaintext: z.boolean().optional(),
  }),
}

/** Result types of the `registry:*` and `config:*` channels. */
export interface RegistryResults {
  'registry:get': RegistryView
  'registry:reload': ReloadResult
  'registry:history': ReloadEvent[]
  'registry:set-enabled': SaveResult
  'registry:enabled-draft': EnabledDraft
  'config:read': RawConfig
  'config:validate': DraftValidation
  'config:save': SaveResult
  'config:import-candidates': ImportCandidate[]
  'config:import-preview': ImportPreview
  'config:import-apply': ImportApplyResult
}

/** A reload applied a registry that differs from the previous one (or recovered from invalid). */
export interface RegistryUpdatedEvent extends RegistryDiff {
  at: number
  durationMs: number
  source: RegistrySource
  trigger: ReloadTrigger
}

/** The files on disk are invalid; the last good registry keeps running. */
export interface ConfigInvalidEvent {
  at: number
  durationMs: number
  source: RegistrySource
  trigger: ReloadTrigger
  diagnostics: Diagnostic[]
}

/** The canaries run after the reload applied at `at` (now on its history entry). */
export interface ReloadCanariesEvent {
  at: number
  canaries: ReloadCanary[]
}

/** Events the registry pushes to the renderer. */
export interface RegistryEvents {
  'registry:updated': RegistryUpdatedEvent
  'config:invalid': ConfigInvalidEvent
  'registry:canaries': ReloadCanariesEvent
}
