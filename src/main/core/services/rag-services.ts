import type { ServerConfig } from '#shared/config/schema'
import type { Profile } from '#shared/model/user'
import type { EventBus } from '../events'
import type { Logger } from '../log'
import type { CallObservers } from '../pool/call-observer'
import type { Redactor, ResolvedConnection } from '../secrets/types'
import { AccessHistory } from './access-history'
import { AccessService } from './access-service'
import { AuditLog } from './audit'
import { createLinkPolicy } from './link-policy'
import { connectionOf, DiscoveryService, searchability } from './discovery-service'
import { DoctorService } from './doctor/doctor-service'
import { EvalService } from './eval/eval-service'
import type { GoldenSet } from '#shared/model/evaluation'
import { RawPayloads } from './raw-payloads'
import { SearchService } from './search-service'
import { ServerCalls } from './server-calls'
import { ServersService, type SecretStatusSource } from './servers-service'
import type { SettingsStore } from './settings'
import type { OAuthStatusSource } from './servers-service'
import { SynthesisService } from './synthesis-service'
import type { ActiveProfile, RegistryReader, SessionPool } from './types'

export interface RagServicesDeps {
  registry: RegistryReader
  pool: SessionPool
  settings: SettingsStore
  secrets: SecretStatusSource & {
    /** A session-only token (capability tokens are named after their source id). */
    sessionToken(server: string, name: string): string | undefined
  }
  events: EventBus
  redactor: Redactor
  /** `<dataDir>/audit`. */
  auditDir: string
  /** `<dataDir>/access-history.json`; absent: the history lives in memory only. */
  accessHistoryFile?: string
  log?: Logger
  /** Who the operations run as; default the active profile of `settings`. */
  profile?: ActiveProfile
  /** The console's own listening ports, never requested by the citation checker. */
  ownPorts?: () => Iterable<number>
  /** A server's secrets resolved, for Doctor's raw HTTP probes; absent: none are sent. */
  resolve?: (config: ServerConfig) => Promise<ResolvedConnection>
  /** `<dataDir>/doctor.json`; absent: Doctor's last reports live in memory only. */
  doctorFile?: string
  /** `<dataDir>/eval`: golden sets and evaluation runs. */
  evalDir: string
  /** Announce the evaluation runs of other processes on the data folder (hosts; not the CLI). */
  watchEvalRuns?: boolean
  /** The golden set offered when there are none yet (the demo corpus's, on the demo registry). */
  demoSet?: () => GoldenSet | undefined
  /** Each server's OAuth sign-in state, shown on its card. */
  oauth?: OAuthStatusSource
  /** Where operations are marked for traces (the core's call observers). */
  operations?: Pick<CallObservers, 'operation'>
}

/**
 * The operations the console's users come for, composed once: the server list, discovery,
 * fan-out search, synthesis, citation access checks and the audit log. Every operation runs as
 * the active profile (`settings.active()`) and every tool call it makes is audited.
 */
export class RagServices {
  readonly audit: AuditLog
  readonly calls: ServerCalls
  readonly servers: ServersService
  readonly discovery: DiscoveryService
  readonly search: SearchService
  /** The raw payloads of the hits of the renderer's recent searches. */
  readonly rawPayloads = new RawPayloads()
  readonly synthesis: SynthesisService
  readonly access: AccessService
  readonly accessHistory: AccessHistory
  readonly doctor: DoctorService
  readonly evaluation: EvalService

  constructor(private readonly deps: RagServicesDeps) {
    const profile = deps.profile ?? (() => deps.settings.active())
    const log = deps.log
    this.audit = new AuditLog(
      deps.auditDir,
      deps.redactor,
      log
        ? {
            onWriteError: (error, lines) =>
              log.error('audit log: lines could not be written', { lines, error: String(error) }),
          }
        : {},
    )
    this.calls = new ServerCalls({
      pool: deps.pool,
      audit: this.audit,
      ...(deps.operations ? { operations: deps.operations } : {}),
    })
    this.servers = new ServersService({
      registry: deps.registry,
      pool: deps.pool,
      secrets: deps.secrets,
      profile,
      ...(deps.oauth ? { oauth: deps.oauth } : {}),
    })
    this.discovery = new DiscoveryService({
      registry: deps.registry,
      calls: this.calls,
      settings: deps.settings,
      profile,
      events: deps.events,
      searchable: (config) => searchability(config, deps.pool),
      connection: (id) => connectionOf(deps.pool, id),
    })
    const plan = {
      registry: deps.registry,
      sourcesOf: this.discovery.sourcesOf.bind(this.discovery),
    }
    this.search = new SearchService({
      ...plan,
      calls: this.calls,
      profile,
      events: deps.events,
      capabilityToken: (server, sourceId) => deps.secrets.sessionToken(server, sourceId),
      rawPayloads: this.rawPayloads,
    })
    this.synthesis = new SynthesisService({ ...plan, calls: this.calls, profile })
    this.access = new AccessService({
      registry: deps.registry,
      calls: this.calls,
      profile,
      events: deps.events,
      audit: this.audit,
      policy: createLinkPolicy({
        settings: () => deps.settings.linkPolicy(),
        ownPorts: deps.ownPorts ?? (() => []),
        registryHosts: () => registryHosts(deps.registry.current().servers),
      }),
    })
    this.accessHistory = new AccessHistory(deps.accessHistoryFile, deps.redactor)
    this.doctor = new DoctorService({
      registry: deps.registry,
      calls: this.calls,
      events: deps.events,
      audit: this.audit,
      profile,
      resolve: deps.resolve ?? (async () => ({ headers: {}, env: {}, missing: [] })),
      rateLimit: (server) => deps.pool.rateLimit(server),
      knownDialect: async (config) => (await this.servers.dialect(config)).id,
      redactor: deps.redactor,
      ...(deps.doctorFile ? { file: deps.doctorFile } : {}),
    })
    this.evaluation = new EvalService({
      ...plan,
      dir: deps.evalDir,
      ...(deps.watchEvalRuns ? { watch: true } : {}),
      redactor: deps.redactor,
      events: deps.events,
      search: this.search,
      activeProfile: profile,
      profile: (id) => deps.settings.profile(id),
      discover: (as) => this.discovery.run({ profile: as, automatic: true }),
      rateLimit: (server) => deps.pool.rateLimit(server),
      ...(deps.demoSet ? { demoSet: deps.demoSet } : {}),
    })
  }

  /** A saved profile by id (e.g. to check access as another user); `not_found` otherwise. */
  profile(id: string): Profile {
    return this.deps.settings.profile(id)
  }

  /** Resolves once every audit line of the operations so far is written. */
  idle(): Promise<void> {
    return this.calls.idle()
  }

  /** Cancels running searches and link checks, then waits for their audit lines. */
  async dispose(): Promise<void> {
    this.search.dispose()
    this.access.dispose()
    this.doctor.dispose()
    await this.evaluation.dispose()
    await this.calls.idle()
  }
}

/** The host names the registry's servers are reached at (their `url`s). */
function registryHosts(servers: readonly ServerConfig[]): string[] {
  return servers.flatMap((server) => {
    if (!server.url) return []
    try {
      return [new URL(server.url).hostname]
    } catch {
      return [] // a URL made of references is checked when it connects
    }
  })
}
