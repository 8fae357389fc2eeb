import { existsSync, readFileSync, renameSync, statSync } from 'node:fs'
import { userInfo } from 'node:os'
import { z } from 'zod'
import { ConsoleError } from '#shared/errors'
import type { ActingUser, Profile } from '#shared/model/user'
import { writeFileAtomicSync } from '../util/atomic-write'
import { withFileLockSync } from '../util/file-lock'
import { DEFAULT_METRICS_PORT } from '../monitoring/metrics-server'
import { DEFAULT_LINK_POLICY, type LinkPolicySettings } from './link-policy'
import { ALL_GROUPS } from './visibility'

const profileSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  userId: z.string().min(1),
  sessionTags: z.array(z.string()),
  humanUid: z.string().optional(),
  groups: z.array(z.string()),
})

const linkPolicySchema = z.object({
  allowHosts: z.array(z.string()).default([]),
  denyHosts: z.array(z.string()).default([]),
  privateHosts: z.array(z.string()).default([]),
})

/** The opt-in Prometheus endpoint of the desktop app and browser host (docs/monitoring.md). */
const metricsSchema = z.object({
  enabled: z.boolean().default(false),
  port: z.number().int().min(0).max(65_535).default(DEFAULT_METRICS_PORT),
})

export type MetricsSettings = z.infer<typeof metricsSchema>

const settingsSchema = z.object({
  version: z.literal(1),
  profiles: z.array(profileSchema).min(1),
  activeProfileId: z.string(),
  /** profile id → server id → source id → selected */
  selections: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.boolean()))),
  /** Where the citation checker may send requests (see docs/operations.md). */
  linkPolicy: linkPolicySchema.optional(),
  /** Serve /metrics on 127.0.0.1 (off unless turned on). */
  metrics: metricsSchema.optional(),
  /** Ids of notices the user dismissed (`AppNotice.id`): not shown again. */
  dismissedNotices: z.array(z.string().max(100)).max(100).optional(),
})

export type Settings = z.infer<typeof settingsSchema>

/** A settings lock held longer than this was left by a hung process (a save takes ms). */
const LOCK_STALE_MS = 10_000

/** The name the default profile had; it promised access that only the servers can grant. */
const FORMER_DEFAULT_NAME = 'Admin (sees every server)'

/**
 * The default profile's name says what it is: the servers receive the OS user's name (no tags),
 * and the console lists every server; whether a server answers is the server's call.
 */
const defaultName = (userId: string): string => `${userId} (OS user, every server listed)`

/**
 * The profile a fresh install starts with: the OS user, every server and source listed. It
 * has no admin rights anywhere: each server judges that user id like any other.
 */
export function defaultProfile(): Profile {
  let user = 'admin'
  try {
    user = userInfo().username || user
  } catch {
    // no passwd entry (containers): keep the default
  }
  return {
    id: 'admin',
    name: defaultName(user),
    userId: user,
    sessionTags: [],
    groups: [ALL_GROUPS],
  }
}

/** Settings saved under the former default name get the name that says what it does. */
/** What changes when the file is written or replaced: size, time and inode. */
function stampOf(file: string): string | undefined {
  try {
    const stat = statSync(file)
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`
  } catch {
    return undefined
  }
}

function renameFormerDefault(settings: Settings): Settings {
  for (const profile of settings.profiles) {
    if (profile.id === 'admin' && profile.name === FORMER_DEFAULT_NAME) {
      profile.name = defaultName(profile.userId)
    }
  }
  return settings
}

/**
 * The app's own settings (`<dataDir>/settings.json`, never rag-mcp.json): acting-user
 * profiles, the active one, which data sources each profile has toggled on, and the citation
 * checker's address policy. Saved
 * atomically on every change; a corrupt file is kept aside, never overwritten silently.
 */
export class SettingsStore {
  private state: Settings
  private readonly listeners = new Set<() => void>()
  /** The file's text as last read or written, and its stat then: a hand edit differs. */
  private seen: { text: string; stamp: string } | undefined
  /** Hand edits that could not be read, moved aside instead of overwritten. */
  private readonly aside: string[] = []
  /** Set when the file on disk could not be read and was moved aside. */
  readonly recovered: string | undefined
  /** No settings file existed: nothing the user chose yet (a first run). */
  private fresh: boolean
  /** The file was looked at in this synchronous run (reset when it ends). */
  private looked = false
  /** A change is being applied under the lock (see {@link change}). */
  private changing = false

  constructor(
    private readonly file: string,
    seed: () => Profile[] = () => [defaultProfile()],
    /** Told when a hand edit that cannot be read is moved aside while running. */
    private readonly onKeptAside: (path: string) => void = () => undefined,
  ) {
    const loaded = this.load()
    this.recovered = loaded.recovered
    this.fresh = !loaded.settings && !loaded.recovered
    this.state = loaded.settings ?? {
      version: 1,
      profiles: seed(),
      activeProfileId: '',
      selections: {},
    }
    this.fixActive()
  }

  /**
   * The settings, with an edit made to the file by hand meanwhile taken in first. The file is
   * looked at once per synchronous run: a search planning 200 servers reads one state of it
   * (and stats it once, not 200 times); a save still reads it again (`refresh(true)`).
   */
  private current(): Settings {
    if (!this.looked) {
      this.looked = true
      queueMicrotask(() => (this.looked = false))
      this.refresh(false)
    }
    return this.state
  }

  profiles(): Profile[] {
    const settings = this.current()
    return structuredClone(settings.profiles)
  }

  active(): Profile {
    const settings = this.current()
    return structuredClone(
      settings.profiles.find((p) => p.id === settings.activeProfileId) ?? settings.profiles[0]!,
    )
  }

  /** The saved profile `id`; `not_found` when there is none. */
  profile(id: string): Profile {
    const settings = this.current()
    this.require(id)
    return structuredClone(settings.profiles.find((p) => p.id === id)!)
  }

  setActive(id: string): Profile {
    this.change(() => {
      this.require(id)
      this.state.activeProfileId = id
    })
    return this.active()
  }

  /** Whether this is a first run: no settings file was found and nothing was saved since. */
  isFresh(): boolean {
    return this.fresh
  }

  /**
   * On a first run only (no settings file yet, nothing saved since), adds `profiles` beside the
   * default one and makes `activeId` active: e.g. the demo servers' users. Returns whether it did.
   */
  seedProfiles(profiles: Profile[], activeId: string): boolean {
    if (!this.fresh || profiles.length === 0) return false
    for (const profile of profiles) this.saveProfile(profile)
    this.setActive(profiles.some((p) => p.id === activeId) ? activeId : profiles[0]!.id)
    return true
  }

  /** Creates or replaces a profile (matched by id). */
  saveProfile(profile: Profile): Profile {
    const parsed = profileSchema.parse(profile)
    this.change(() => {
      const index = this.state.profiles.findIndex((p) => p.id === parsed.id)
      if (index >= 0) this.state.profiles[index] = parsed
      else this.state.profiles.push(parsed)
    })
    return structuredClone(parsed)
  }

  deleteProfile(id: string): void {
    this.change(() => {
      this.require(id)
      if (this.state.profiles.length === 1) {
        throw new ConsoleError({
          code: 'invalid_argument',
          message: 'the last profile cannot be deleted',
        })
      }
      this.state.profiles = this.state.profiles.filter((p) => p.id !== id)
      delete this.state.selections[id]
      if (this.state.activeProfileId === id) {
        this.state.activeProfileId = this.state.profiles[0]!.id
      }
    })
  }

  /** Remembered toggles of one profile for one server; absent sources were never touched. */
  selection(profileId: string, server: string): Record<string, boolean> {
    const settings = this.current()
    return { ...settings.selections[profileId]?.[server] }
  }

  /** Every remembered toggle of one profile, by server. */
  selections(profileId: string): Record<string, Record<string, boolean>> {
    const settings = this.current()
    return structuredClone(settings.selections[profileId] ?? {})
  }

  setSelection(profileId: string, server: string, changes: Record<string, boolean>): void {
    this.change(() => {
      this.require(profileId)
      const byServer = (this.state.selections[profileId] ??= {})
      byServer[server] = { ...byServer[server], ...changes }
    })
  }

  /**
   * The citation checker's address policy (any public host, nothing extra denied, no private
   * host allowed, by default).
   */
  linkPolicy(): LinkPolicySettings {
    const settings = this.current()
    return structuredClone({ ...DEFAULT_LINK_POLICY, ...settings.linkPolicy })
  }

  setLinkPolicy(policy: LinkPolicySettings): void {
    const parsed = linkPolicySchema.parse(policy)
    this.change(() => (this.state.linkPolicy = parsed))
  }

  /** Whether the app serves /metrics, and on which loopback port (off by default). */
  metrics(): MetricsSettings {
    const settings = this.current()
    return metricsSchema.parse(settings.metrics ?? {})
  }

  setMetrics(metrics: Partial<MetricsSettings>): MetricsSettings {
    this.change(() => {
      this.state.metrics = metricsSchema.parse({ ...this.state.metrics, ...metrics })
    })
    return this.metrics()
  }

  /** Ids of the notices dismissed for good. */
  dismissedNotices(): string[] {
    return [...(this.current().dismissedNotices ?? [])]
  }

  dismissNotice(id: string): void {
    this.refresh(true)
    const dismissed = this.state.dismissedNotices ?? []
    if (dismissed.includes(id)) return
    this.state.dismissedNotices = [...dismissed, id].slice(-100)
    this.commit()
  }

  onChanged(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** After a refresh: callers took in the file first. */
  private require(id: string): void {
    if (!this.state.profiles.some((p) => p.id === id)) {
      throw new ConsoleError({ code: 'not_found', message: `no profile with id ${id}` })
    }
  }

  /** Hand edits of settings.json that could not be read, kept aside under these names. */
  keptAside(): string[] {
    return [...this.aside]
  }

  private fixActive(): void {
    if (!this.state.profiles.some((p) => p.id === this.state.activeProfileId)) {
      this.state.activeProfileId = this.state.profiles[0]!.id
    }
  }

  /**
   * Reads settings.json, applies `mutate` and writes it back under a lock every console on this
   * data folder takes (`settings.json.lock`): the app, `monitor` and a CLI saving at once each
   * keep the others' changes. A change made while one is being applied (a listener's) joins it.
   */
  private change(mutate: () => void): void {
    if (this.changing) {
      mutate()
      this.commit()
      return
    }
    this.changing = true
    try {
      withFileLockSync(
        `${this.file}.lock`,
        () => {
          this.refresh(true)
          mutate()
          this.commit()
        },
        { staleMs: LOCK_STALE_MS },
      )
    } finally {
      this.changing = false
    }
  }

  private commit(): void {
    this.fresh = false
    const text = `${JSON.stringify(this.state, null, 2)}\n`
    writeFileAtomicSync(this.file, text)
    this.seen = { text, stamp: stampOf(this.file) ?? '' }
    for (const listener of this.listeners) listener()
  }

  /**
   * Takes in settings.json as edited by hand since it was last read or written: a readable
   * edit replaces what is held; one that cannot be read is moved aside (the next save would
   * overwrite it) and what is held stays. `force` reads the text even when the file's stat
   * looks unchanged (before a change, so a save never drops an edit made in the same tick).
   */
  private refresh(force: boolean): void {
    const stamp = stampOf(this.file)
    if (stamp === undefined || (!force && stamp === this.seen?.stamp)) return
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch {
      return
    }
    if (text === this.seen?.text) {
      this.seen = { text, stamp }
      return
    }
    const read = this.parse(text)
    if (!read) return
    this.state = read
    this.fixActive()
    this.seen = { text, stamp }
    for (const listener of this.listeners) listener()
  }

  /** Valid settings from the file's text, or undefined after moving the file aside. */
  private parse(text: string): Settings | undefined {
    try {
      return renameFormerDefault(settingsSchema.parse(JSON.parse(text)))
    } catch {
      const aside = `${this.file}.unreadable-${Date.now()}`
      renameSync(this.file, aside)
      this.aside.push(aside)
      this.seen = undefined
      if (this.state) this.onKeptAside(aside)
      return undefined
    }
  }

  private load(): { settings?: Settings; recovered?: string } {
    if (!existsSync(this.file)) return {}
    const text = readFileSync(this.file, 'utf8')
    const settings = this.parse(text)
    if (!settings) return { recovered: this.aside.pop()! }
    this.seen = { text, stamp: stampOf(this.file)! }
    return { settings }
  }
}

/**
 * Whom a command acts as when its acting user is given field by field (the CLI's `--user`,
 * `--tags`, `--human-uid`). The fields given win; the rest come from the saved profile with
 * that user id (the active one first), never from another person's: a user id no profile has
 * gets no session tags and no human uid, and the active profile's groups (they only decide
 * what the console lists, servers never see them). Without a user id, the active profile.
 */
export function profileForUser(
  settings: Pick<SettingsStore, 'active' | 'profiles'>,
  given: Partial<ActingUser>,
): Profile {
  const active = settings.active()
  if (given.userId === undefined || given.userId === active.userId) return { ...active, ...given }
  const saved = settings.profiles().find((profile) => profile.userId === given.userId)
  // Toggles and groups stay the active profile's: they say what to list and search, not who asks.
  const base: Profile = saved ?? {
    id: active.id,
    name: given.userId,
    userId: given.userId,
    sessionTags: [],
    groups: active.groups,
  }
  return { ...base, ...given }
}
