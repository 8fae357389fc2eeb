import { performance } from 'node:perf_hooks'
import { parseRegistryDocument } from '#shared/config/document'
import { fieldChanges } from '#shared/config/field-changes'
import type { ServerConfig } from '#shared/config/schema'
import { ConsoleError } from '#shared/errors'
import type { SecretRefStatus } from '#shared/ipc/secrets'
import type {
  DraftValidation,
  EnabledDraft,
  ImportApplyResult,
  ImportPreview,
  RawConfig,
  RegistryView,
  ReloadResult,
  SaveResult,
} from '#shared/ipc/registry'
import type {
  Diagnostic,
  RegistryDiff,
  RegistrySource,
  ReloadCanary,
  ReloadEvent,
  ReloadTrigger,
} from '#shared/model/registry'
import type { EventBus } from '../events'
import type { Logger } from '../log'
import { loadEmbeddedRegistry, type EmbeddedRegistry } from './embedded'
import { FileWatchers } from './file-watch'
import { diffRegistries, isNoop, stableStringify } from './hash'
import { withoutValues, type MovedSecret } from './import'
import { planImport, type ImportSource } from './import-plan'
import { loadSource, snapshot, toRegistry, type FileSnapshot, type LoadResult } from './load'
import { saveRegistryFile, type SaveRequest } from './safe-save'
import { layeredPaths, resolveRegistrySource, type LookupOptions } from './lookup'
import { definesServer, editEntries } from './text-edit'
import type { Registry } from './types'

/** How many reload events {@link RegistryStore.history} keeps. */
export const HISTORY_LIMIT = 50

/** The store's dependencies, given explicitly by the composition root (or a test). */
export interface RegistryStoreOptions {
  /** How the registry file(s) are found; re-resolved on every reload (a save may create one). */
  lookup: LookupOptions
  /** Receives `registry:updated` and `config:invalid`. */
  events?: EventBus
  /** The embedded default registry; defaults to {@link loadEmbeddedRegistry}. */
  embedded?: () => EmbeddedRegistry
  /** Watch the files in use and reload on change (default true). */
  watch?: boolean
  /** Wall clock for event times (tests may pass a fake one). */
  now?: () => number
  log?: Logger
  /** Where an import stores the credentials it moves out of the file (the OS keychain). */
  secrets?: SecretSink
  /**
   * How long an edit waits for a file found empty, missing or not JSON where a valid registry
   * was (another program rewriting it in place) to become readable again (default 1000 ms).
   */
  untrustedWaitMs?: number
}

/** Stores a secret of a server: the keychain, as the secrets service exposes it. */
export interface SecretSink {
  set(serverId: string, name: string, value: string): Promise<void>
}

/** Whether a server's secret references have values (the secrets service). */
export interface SecretStatus {
  statusOf(
    config: ServerConfig,
    skipKeychain?: boolean,
  ): Promise<{ refs: SecretRefStatus[]; error?: unknown }>
}

/** Called after a reload applied a different registry; `diff` says which servers changed. */
export type UpdatedListener = (registry: Registry, diff: RegistryDiff) => void
/** Called with every diagnostic of a load that failed (the last good registry stays). */
export type InvalidListener = (diagnostics: Diagnostic[]) => void

/**
 * The running registry: loads rag-mcp.json (layered lookup), watches every file in use, and on
 * each change validates, diffs by effective-config hash and notifies. An invalid file never
 * replaces the last good registry. Saves, `setEnabled` and imports write atomically and are
 * applied through the same reload path exactly once. All reloads and saves run one at a time.
 */
export class RegistryStore {
  private registry: Registry
  private appliedAt = 0
  private invalid: { at: number; diagnostics: Diagnostic[] } | undefined
  private lastReadKey: string | undefined
  /** The writable file at the last valid load: whether it existed (held a valid registry). */
  private lastValid: { path: string; exists: boolean } | undefined
  private readonly events: ReloadEvent[] = []
  private readonly updatedListeners = new Set<UpdatedListener>()
  private readonly invalidListeners = new Set<InvalidListener>()
  private readonly watchers: FileWatchers
  private readonly embedded: () => EmbeddedRegistry
  private readonly now: () => number
  private queue: Promise<unknown> = Promise.resolve()
  private watchReloadQueued = false
  private disposed = false
  private readonly counts = { watchEvents: 0, reloads: 0, unchangedOnDisk: 0 }

  constructor(private readonly options: RegistryStoreOptions) {
    this.embedded = options.embedded ?? (() => loadEmbeddedRegistry())
    this.now = options.now ?? Date.now
    this.registry = { source: this.resolveSource(), servers: [], hashes: {}, warnings: [] }
    this.watchers = new FileWatchers(
      () => {
        this.counts.watchEvents++
        this.scheduleWatchReload()
      },
      (path, error) => options.log?.warn('registry watcher failed', { path, error }),
    )
  }

  /**
   * Starts watching, then loads the registry (so no write in between is missed). An invalid
   * file leaves an empty registry and the diagnostics in {@link invalidState}.
   */
  async start(): Promise<ReloadResult> {
    if (this.options.watch ?? true) await this.watchers.set(this.watchedPaths())
    return this.serialized(() => this.reload('startup'))
  }

  /** The registry in use: the last one that loaded without errors. */
  current(): Registry {
    return this.registry
  }

  /** The registry plus when it was applied and the current invalid state, for the UI. */
  view(): RegistryView {
    return {
      ...this.registry,
      appliedAt: this.appliedAt,
      ...(this.invalid ? { invalid: this.invalid } : {}),
    }
  }

  /** One server's effective config, or undefined. */
  server(id: string): ServerConfig | undefined {
    return this.registry.servers.find((server) => server.id === id)
  }

  /** Diagnostics while the files on disk are invalid (the registry is then the last good one). */
  invalidState(): { at: number; diagnostics: Diagnostic[] } | undefined {
    return this.invalid
  }

  /**
   * How many watcher events arrived, how many reloads ran, and how many watch reloads found
   * the files exactly as last read (our own saves, touches) and so did nothing.
   */
  counters(): { watchEvents: number; reloads: number; unchangedOnDisk: number } {
    return { ...this.counts }
  }

  /** Resolves once every queued reload and save has finished. */
  async whenIdle(): Promise<void> {
    for (let queue = this.queue; ; queue = this.queue) {
      await queue
      if (queue === this.queue && !this.watchReloadQueued) return
    }
  }

  /** The last {@link HISTORY_LIMIT} reloads, oldest first. */
  history(): ReloadEvent[] {
    return [...this.events]
  }

  /**
   * Attaches the canary runs that followed the reload applied at `at` to its history entry
   * (false when that entry has left the history).
   */
  annotateReload(at: number, canaries: ReloadCanary[]): boolean {
    const event = this.events.findLast((e) => e.at === at && e.outcome === 'applied')
    if (!event) return false
    event.canaries = [...(event.canaries ?? []), ...canaries]
    this.options.events?.emit('registry:canaries', { at, canaries })
    return true
  }

  /** Re-reads the files now (also when nothing changed on disk). */
  reloadNow(): Promise<ReloadResult> {
    return this.serialized(() => this.reload('manual'))
  }

  /**
   * Subscribes to applied changes: called after every reload whose effective registry differs
   * (servers, warnings or source) or that recovers from an invalid file. Not called for the
   * initial load: read {@link current} once, then subscribe. Returns an unsubscribe function.
   */
  onUpdated(listener: UpdatedListener): () => void {
    this.updatedListeners.add(listener)
    return () => this.updatedListeners.delete(listener)
  }

  /** Subscribes to invalid loads (the last good registry keeps running). */
  onInvalid(listener: InvalidListener): () => void {
    this.invalidListeners.add(listener)
    return () => this.invalidListeners.delete(listener)
  }

  /**
   * The writable file's text for the editor, with the hash to pass back to {@link save}. A file
   * caught mid-rewrite (see {@link readForEdit}) is read again once it is whole.
   */
  async readRaw(): Promise<RawConfig> {
    return (await this.readForEdit()).raw
  }

  private readRawNow(): { raw: RawConfig; disk: FileSnapshot } {
    const source = this.resolveSource()
    const path = this.writablePath(source)
    const disk = snapshot(path)
    const fromEmbedded = source.kind === 'embedded'
    const raw: RawConfig = {
      path,
      exists: disk.exists,
      text: fromEmbedded ? this.embedded().text : disk.exists ? disk.text : '{}\n',
      hash: disk.hash,
      source,
      layeredOver: source.kind === 'layered' ? source.files.filter((f) => f !== path) : [],
      fromEmbedded,
    }
    return { raw, disk }
  }

  /**
   * Why the writable file as just read cannot be the base of an edit: it is missing, empty,
   * unreadable or not JSON while the last valid load found a registry there. That is what a
   * program rewriting the file in place (truncate, then write) leaves for a moment; an edit made
   * on it would drop every server it did not touch.
   */
  private distrust(raw: RawConfig, disk: FileSnapshot): string | undefined {
    const known = this.lastValid
    if (raw.fromEmbedded || known?.path !== raw.path || !known.exists) return undefined
    const was = 'where it held a valid registry: another program may be rewriting it'
    if (!disk.exists) return `${raw.path} is missing, ${was}`
    if (disk.problem) return `${disk.problem.message}, ${was}`
    const broken = parseRegistryDocument(raw.path, disk.text).diagnostics.find(
      (d) => d.severity === 'error' && UNREADABLE_RULES.has(d.rule),
    )
    if (!broken) return undefined
    if (broken.rule === 'empty_file') return `${raw.path} is empty, ${was}`
    return `${raw.path} is not a registry at line ${broken.line} (${broken.message}), ${was}`
  }

  /**
   * Reads the writable file for an edit. A read that cannot be trusted ({@link distrust}) is
   * retried until the file is whole again, for {@link RegistryStoreOptions.untrustedWaitMs} at
   * most; `untrusted` then says why it still is not.
   */
  private async readForEdit(): Promise<{ raw: RawConfig; untrusted?: string }> {
    const deadline = performance.now() + (this.options.untrustedWaitMs ?? 1000)
    for (;;) {
      const { raw, disk } = this.readRawNow()
      const untrusted = this.distrust(raw, disk)
      if (untrusted === undefined) return { raw }
      if (performance.now() >= deadline || this.disposed) return { raw, untrusted }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  /** The answer to an edit refused because the file could not be trusted: nothing written. */
  private untrustedConflict(raw: RawConfig, untrusted: string): SaveResult {
    const disk = snapshot(raw.path)
    return {
      status: 'conflict',
      path: raw.path,
      diskExists: disk.exists,
      diskText: disk.text,
      diskHash: disk.hash,
      proposedText: raw.text,
      untrusted: `${untrusted}. Nothing was written: try again once the file is saved, or fix it in Config.`,
    }
  }

  /**
   * Diagnostics of a draft of the writable file and the diff saving it would cause; with
   * `secrets`, the keychain references of the servers it adds or changes that have no value.
   */
  async validateDraft(text: string, secrets?: SecretStatus): Promise<DraftValidation> {
    const result = this.loadDraft(text)
    const validation: DraftValidation = {
      valid: result.build.ok,
      diagnostics: result.build.diagnostics,
      diff: result.build.ok ? this.diffTo(toRegistry(result)) : null,
    }
    const touched = new Set([
      ...(validation.diff?.added ?? []),
      ...(validation.diff?.changed ?? []),
    ])
    if (!secrets || touched.size === 0) return validation
    const missing: { server: string; name: string }[] = []
    // Asked one server after another: a keychain that fails once is not asked again.
    let unavailable = false
    for (const config of result.build.servers.filter((s) => touched.has(s.id))) {
      const { refs, error } = await secrets.statusOf(config, unavailable)
      unavailable ||= error !== undefined
      for (const ref of refs) {
        if (ref.kind === 'keychain' && ref.present === false) {
          missing.push({ server: config.id, name: ref.name })
        }
      }
    }
    return { ...validation, missingSecrets: missing }
  }

  /**
   * Saves the writable file: refused with diagnostics when invalid; a `conflict` when the file
   * changed on disk since `baseHash` (unless `force`); else written atomically with `.bak` and
   * applied through the reload path once.
   */
  save(request: SaveRequest): Promise<SaveResult> {
    return this.serialized(() => this.saveLocked(request, 'save'))
  }

  /** Sets one server's `enabled` in the file, keeping its comments and formatting. */
  setEnabled(serverId: string, enabled: boolean): Promise<SaveResult> {
    return this.setField(serverId, 'enabled', enabled)
  }

  /**
   * The writable file with one field of a server set (comments and formatting kept), and the
   * file it was made from: save it with that file's hash, so a change on disk in between is a
   * conflict. Nothing is written.
   */
  async draftField(
    serverId: string,
    field: string,
    value: unknown,
  ): Promise<{ raw: RawConfig; text: string }> {
    const { raw, untrusted } = await this.readForEdit()
    if (untrusted !== undefined) {
      throw new ConsoleError({
        code: 'conflict',
        message: `${untrusted}. Try again once it is saved.`,
      })
    }
    return { raw, text: this.editField(raw, serverId, field, value) }
  }

  /** The file's text with one field of a server set; `not_found` for a server it lacks. */
  private editField(raw: RawConfig, serverId: string, field: string, value: unknown): string {
    if (!(serverId in this.registry.hashes) && !definesServer(raw.text, serverId)) {
      throw new ConsoleError({
        code: 'not_found',
        server: serverId,
        message: `server '${serverId}' is not in the registry (${raw.source.label}): check the id`,
      })
    }
    return editEntries(raw.text, [{ id: serverId, field, value }])
  }

  /** Sets one field of a server in the file, keeping its comments and formatting. */
  async setField(serverId: string, field: string, value: unknown): Promise<SaveResult> {
    // A concurrent external edit makes the save a conflict: redo the edit on the new text.
    for (let attempt = 0; ; attempt++) {
      const { raw, untrusted } = await this.readForEdit()
      if (untrusted !== undefined) return this.untrustedConflict(raw, untrusted)
      const text = this.editField(raw, serverId, field, value)
      const result = await this.serialized(() =>
        this.saveEdit(raw, { text, baseHash: raw.hash }, 'save'),
      )
      if (result.status !== 'conflict' || attempt >= 2) return result
    }
  }

  /**
   * The writable file as it is and as {@link setEnabled} would write it, without writing: the
   * preview of a first save that creates the file from the embedded registry.
   */
  async enabledDraft(serverId: string, enabled: boolean): Promise<EnabledDraft> {
    const raw = await this.readRaw()
    return { raw, text: this.editField(raw, serverId, 'enabled', enabled) }
  }

  /** What importing a Claude Desktop / Cursor / VS Code file would add or change. */
  async previewImport(source: ImportSource): Promise<ImportPreview> {
    const raw = await this.readRaw()
    return planImport(source, raw, this.registry, (text) => this.loadDraft(text)).preview
  }

  /**
   * Merges an imported file's servers (all that would change, or `servers`) with a safe save.
   * Credentials found in plain text go to the keychain first and the file gets references,
   * unless `keepPlaintext`.
   */
  applyImport(request: {
    source: ImportSource
    servers?: string[]
    baseHash: string
    force?: boolean
    keepPlaintext?: boolean
  }): Promise<ImportApplyResult> {
    return this.serialized(async () => {
      const { raw, untrusted } = await this.readForEdit()
      if (untrusted !== undefined) {
        return {
          ...this.untrustedConflict(raw, untrusted),
          imported: [],
          requiredSecrets: [],
          movedSecrets: [],
        }
      }
      const plan = planImport(request.source, raw, this.registry, (text) => this.loadDraft(text), {
        only: request.servers,
        keepPlaintext: request.keepPlaintext,
      })
      if (plan.imported.length === 0) {
        throw new ConsoleError({
          code: 'invalid_argument',
          message: 'nothing to import: the selected servers are already configured this way',
        })
      }
      const requiredSecrets = plan.preview.requiredSecrets.filter((s) =>
        plan.imported.includes(s.server),
      )
      // Only a save that can go ahead stores secrets (the save re-checks all this).
      const writable = raw.hash === request.baseHash || request.force
      if (writable && this.loadDraft(plan.text).build.ok) await this.storeSecrets(plan.movedSecrets)
      const saved = await this.saveEdit(
        raw,
        { text: plan.text, baseHash: request.baseHash, force: request.force },
        'import',
      )
      const movedSecrets = withoutValues(plan.movedSecrets)
      return { ...saved, imported: plan.imported, requiredSecrets, movedSecrets }
    })
  }

  /** Stops watching and drops every listener. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    await this.watchers.close()
    await this.queue
    this.updatedListeners.clear()
    this.invalidListeners.clear()
  }

  private resolveSource(): RegistrySource {
    return resolveRegistrySource(this.options.lookup)
  }

  /** Without --config the layered files are watched even while absent: creating one switches. */
  private watchedPaths(): string[] {
    const source = this.resolveSource()
    if (source.kind === 'file') return source.files
    const { defaults, overrides } = layeredPaths(this.options.lookup.dataDir)
    return [defaults, overrides]
  }

  private writablePath(source: RegistrySource): string {
    return source.writableFile ?? layeredPaths(this.options.lookup.dataDir).overrides
  }

  private loadDraft(text: string): LoadResult {
    const source = this.resolveSource()
    return loadSource(source, this.embedded, { path: this.writablePath(source), text })
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    if (this.disposed) {
      return Promise.reject(
        new ConsoleError({ code: 'internal', message: 'the registry was disposed' }),
      )
    }
    const run = this.queue.then(task, task)
    this.queue = run.catch(() => undefined)
    return run
  }

  private scheduleWatchReload(): void {
    if (this.watchReloadQueued || this.disposed) return
    this.watchReloadQueued = true
    void this.serialized(async () => {
      this.watchReloadQueued = false
      return this.reload('watch')
    }).catch((error: unknown) => this.options.log?.error('registry reload failed', { error }))
  }

  private async saveLocked(request: SaveRequest, trigger: ReloadTrigger): Promise<SaveResult> {
    const source = this.resolveSource()
    const written = await saveRegistryFile(
      source,
      this.writablePath(source),
      request,
      this.embedded,
    )
    return written.status === 'saved' ? { ...written, reload: await this.reload(trigger) } : written
  }

  /**
   * Saves a text the console made from `raw` (a toggle, an import): every server `raw` defines
   * must still be defined, so an edit never drops a server it did not mean to touch.
   */
  private async saveEdit(
    raw: RawConfig,
    request: SaveRequest,
    trigger: ReloadTrigger,
  ): Promise<SaveResult> {
    const kept = new Set(serverIds(request.text))
    const dropped = serverIds(raw.text).filter((id) => !kept.has(id))
    if (dropped.length > 0) {
      throw new ConsoleError({
        code: 'internal',
        message: `the edit would drop server(s) ${dropped.join(', ')} from ${raw.path}: nothing was written`,
      })
    }
    return this.saveLocked(request, trigger)
  }

  private async storeSecrets(secrets: readonly MovedSecret[]): Promise<void> {
    if (secrets.length === 0) return
    const sink = this.options.secrets
    if (!sink) {
      throw new ConsoleError({
        code: 'keychain_unavailable',
        message: `the imported servers have ${secrets.length} plaintext credential(s) (${secrets.map((s) => `${s.server} ${s.where}`).join(', ')}) and there is no keychain to move them to: nothing was written; set up the OS keychain, or import again keeping them in plain text`,
      })
    }
    for (const secret of secrets) await sink.set(secret.server, secret.name, secret.value)
  }

  /**
   * Reads, validates and applies. A watch-triggered reload whose files read exactly as last
   * time (our own save, a touch) does nothing; so does an identical effective registry.
   */
  private async reload(trigger: ReloadTrigger): Promise<ReloadResult> {
    const started = performance.now()
    const source = this.resolveSource()
    const result = loadSource(source, this.embedded)
    const readKey = stableStringify([source, result.files.map((f) => [f.path, f.hash])])
    const unchangedOnDisk = readKey === this.lastReadKey
    this.lastReadKey = readKey
    const at = this.now()
    const previous = this.events.at(-1)
    if (trigger === 'watch' && unchangedOnDisk && previous) {
      this.counts.unchangedOnDisk++
      return { event: previous, emitted: false }
    }
    this.counts.reloads++

    if (!result.build.ok) {
      const durationMs = performance.now() - started
      const diagnostics = result.build.diagnostics
      const event: ReloadEvent = {
        at,
        trigger,
        outcome: 'invalid',
        durationMs,
        source,
        diagnostics,
      }
      this.invalid = { at, diagnostics }
      this.record(event)
      this.options.events?.emit('config:invalid', { at, durationMs, source, trigger, diagnostics })
      for (const listener of this.invalidListeners) safely(() => listener(diagnostics))
      const kept =
        this.appliedAt === 0 ? 'no servers until it is fixed' : 'keeping the last good one'
      this.options.log?.warn(`registry invalid: ${kept}`, {
        errors: diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
      })
      return { event, emitted: true }
    }

    const writable = this.writablePath(source)
    const file = result.files.find((f) => f.path === writable)
    this.lastValid = { path: writable, exists: file !== undefined && file.exists && !file.problem }
    const next = toRegistry(result)
    const diff = this.diffTo(next)
    const emitted =
      trigger !== 'startup' &&
      (!isNoop(diff) ||
        this.invalid !== undefined ||
        stableStringify([next.source, next.warnings]) !==
          stableStringify([this.registry.source, this.registry.warnings]))
    const durationMs = performance.now() - started
    const event: ReloadEvent = { at, trigger, outcome: 'applied', durationMs, source, diff }
    this.registry = next
    this.invalid = undefined
    if (emitted || trigger === 'startup') this.appliedAt = at
    this.record(event)
    if (emitted) {
      this.options.events?.emit('registry:updated', { ...diff, at, durationMs, source, trigger })
      for (const listener of this.updatedListeners) safely(() => listener(next, diff))
      this.options.log?.info('registry applied', { trigger, ...diff, durationMs })
    }
    return { event, emitted }
  }

  /** What going from the running registry to `next` changes, with each changed server's fields. */
  private diffTo(next: Registry): RegistryDiff {
    const diff = diffRegistries(this.registry.hashes, next.hashes)
    if (diff.changed.length === 0) return diff
    const was = new Map(this.registry.servers.map((config) => [config.id, config]))
    const now = new Map(next.servers.map((config) => [config.id, config]))
    diff.fields = Object.fromEntries(
      diff.changed.map((id) => [id, fieldChanges(was.get(id)!, now.get(id)!)]),
    )
    return diff
  }

  private record(event: ReloadEvent): void {
    this.events.push(event)
    if (this.events.length > HISTORY_LIMIT)
      this.events.splice(0, this.events.length - HISTORY_LIMIT)
  }
}

/** Load errors that mean the text is not a registry file at all (rather than a wrong entry). */
const UNREADABLE_RULES: ReadonlySet<string> = new Set([
  'empty_file',
  'json_syntax',
  'too_deep',
  'invalid_root',
])

const serverIds = (text: string): string[] =>
  parseRegistryDocument('', text).entries.map((entry) => entry.id)

function safely(fn: () => void): void {
  try {
    fn()
  } catch (error) {
    console.error('registry listener failed:', error)
  }
}
