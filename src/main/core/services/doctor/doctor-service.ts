import { randomUUID } from 'node:crypto'
import type { ServerConfig } from '#shared/config/schema'
import { ConsoleError, toErrorInfo, type ErrorInfo } from '#shared/errors'
import type {
  CheckEvidence,
  DoctorCheckResult,
  DoctorRun,
  ServerDoctorReport,
} from '#shared/model/doctor'
import {
  DIALECT_IDS,
  type DialectId,
  type DialectInfo,
  type RateLimitInfo,
} from '#shared/model/server'
import type { ActingUser } from '#shared/model/user'
import { adapterFor, detect } from '../../dialects/registry'
import type { DialectAdapter } from '../../dialects/types'
import type { EventBus } from '../../events'
import type { ServerSession } from '../../pool/types'
import type { Redactor, ResolvedConnection } from '../../secrets/types'
import type { AuditSink } from '../audited-session'
import { mapBounded, withBudget } from '../budget'
import type { ServerCall, ServerCalls } from '../server-calls'
import { actingUser } from '../targets'
import type { ActiveProfile, RegistryReader } from '../types'
import { LastReports } from './last-reports'
import { createProbe } from './probe'
import { checksFor } from './registry'
import type { DoctorCheck } from './types'
import { CancellableRuns } from '../cancellable-runs'

export interface DoctorDeps {
  registry: RegistryReader
  calls: ServerCalls
  /** Where each server's report goes as `doctor:progress` the moment it is done. */
  events?: EventBus
  audit: AuditSink
  profile: ActiveProfile
  /** Secrets resolved for the raw HTTP probes (the pool's own resolver). */
  resolve(config: ServerConfig): Promise<ResolvedConnection>
  redactor: Redactor
  /** `<dataDir>/doctor.json`; absent: the last reports live in memory only. */
  file?: string
  /** What the server's last replies said of its rate limit (`X-RateLimit-*`). */
  rateLimit?: (server: string) => RateLimitInfo | undefined
  /** The family a server is known to speak (configured, or detected when it last connected). */
  knownDialect?: (config: ServerConfig) => Promise<DialectId | null>
  /** Time one check may take; default the server's `timeoutMs`. */
  checkTimeoutMs?: number
  now?: () => number
}

/** Servers checked at once; each server's checks run one after another (cheap on the server). */
const SERVERS_AT_ONCE = 4
/** Longest evidence value kept, as JSON characters. */
const MAX_EVIDENCE_CHARS = 8_000
/** Requests one run may send a server (connecting included), to keep within its rate limit. */
const REQUESTS_PER_RUN = 12
/** Room for connecting, in checks' time, on top of the checks themselves. */
const CONNECT_CHECKS = 2
/** The most checks any family gets, for the server's whole time budget. */
const MAX_CHECKS = Math.max(...DIALECT_IDS.map((id) => checksFor(id).length))

/**
 * Doctor: runs each server's family checks (and the protocol's) as the acting profile, through
 * the pool, audited as `doctor` operations, and keeps each server's last report.
 */
export class DoctorService {
  private readonly last: LastReports
  private readonly running = new CancellableRuns(
    (id) =>
      new ConsoleError({
        code: 'conflict',
        message: `Doctor run ${id} is already running; cancel it or use a new id`,
      }),
  )

  constructor(private readonly deps: DoctorDeps) {
    this.last = new LastReports(deps.file)
  }

  /**
   * Checks the named servers, or every enabled server of the registry. Each server's report is
   * kept and sent as `doctor:progress` as soon as it is done; after {@link cancel} the run
   * resolves with the servers done by then, and the others keep their last report.
   */
  async run(
    request: { runId?: string | undefined; servers?: string[] | undefined } = {},
  ): Promise<DoctorRun & { runId: string; cancelled: boolean }> {
    const runId = request.runId ?? randomUUID()
    return this.running.run(runId, async (signal) => {
      const ids = request.servers?.length
        ? [...new Set(request.servers)]
        : this.deps.registry
            .current()
            .servers.filter((server) => server.enabled)
            .map((server) => server.id)
      const user = actingUser(this.deps.profile())
      let done = 0
      const reports = await mapBounded(
        ids,
        SERVERS_AT_ONCE,
        (id) => this.runServer(id, user, signal),
        (report) => {
          if (!report) return
          this.last.keep([report])
          done += 1
          this.deps.events?.emit('doctor:progress', { runId, report, done, total: ids.length })
        },
      )
      const servers = reports.filter((report) => report !== undefined)
      return { runId, cancelled: signal.aborted, servers }
    })
  }

  /** Stops a running run; false when no run has that id (it finished, or never ran). */
  cancel(runId: string): boolean {
    return this.running.cancel(runId)
  }

  /** Cancels every running run. */
  dispose(): void {
    this.running.dispose()
  }

  /** The last report of every server checked so far (or of one). */
  lastReports(server?: string): DoctorRun {
    return { servers: this.last.list(server) }
  }

  /** One server's report; undefined when the run was cancelled before its checks ended. */
  private async runServer(
    id: string,
    user: ActingUser,
    signal: AbortSignal,
  ): Promise<ServerDoctorReport | undefined> {
    if (signal.aborted) return undefined
    const now = this.deps.now ?? Date.now
    const report: ServerDoctorReport = {
      server: id,
      dialect: null,
      at: new Date(now()).toISOString(),
      user: user.userId,
      checks: [],
    }
    const config = this.deps.registry.server(id)
    if (!config) {
      const message = `server ${id}: not in the registry; check the id with \`rag-console servers\``
      return { ...report, error: { code: 'not_found', message, server: id } }
    }
    // A report without checks still names the family, so it is not read as "no family".
    const unchecked = async (error: ErrorInfo): Promise<ServerDoctorReport> => ({
      ...report,
      dialect: (await this.deps.knownDialect?.(config).catch(() => null)) ?? null,
      error,
    })
    const limited = this.nearLimit(id, now())
    if (limited) return unchecked(limited)
    const perCheck = this.deps.checkTimeoutMs ?? config.timeoutMs
    const resolved =
      config.transport === 'http'
        ? await this.deps.resolve(config).catch(() => undefined)
        : undefined
    const outcome = await this.deps.calls.run(
      config,
      {
        user,
        operation: 'doctor',
        sources: [],
        budgetMs: perCheck * (MAX_CHECKS + CONNECT_CHECKS),
        signal,
        dialect: dialectOrGeneric,
      },
      async (call) => {
        const checks: DoctorCheckResult[] = []
        for (const check of checksFor(call.dialect.id ?? 'generic')) {
          if (call.options.signal?.aborted) break
          checks.push(await this.runCheck(check, { call, user, resolved }, perCheck))
        }
        return { value: { dialect: call.dialect.id, checks }, resultCount: checks.length }
      },
    )
    if (signal.aborted) return undefined
    const done = outcome.ok ? { ...report, ...outcome.value } : await unchecked(outcome.error)
    return this.deps.redactor.redact(done)
  }

  /** A refusal to probe when the server's rate limit has too few requests left for a run. */
  private nearLimit(server: string, now: number): ErrorInfo | undefined {
    const info = this.deps.rateLimit?.(server)
    if (info?.remaining === undefined || info.remaining >= REQUESTS_PER_RUN) return undefined
    if (info.reset !== undefined && info.reset * 1000 <= now) return undefined
    const until = info.reset ? ` until ${new Date(info.reset * 1000).toISOString()}` : ''
    return {
      code: 'rate_limited',
      origin: 'local',
      server,
      message: `server ${server}: only ${info.remaining} request(s) left${until} under its rate limit; Doctor needs about ${REQUESTS_PER_RUN}, so run Doctor again after that`,
    }
  }

  private async runCheck(
    check: DoctorCheck,
    context: { call: ServerCall; user: ActingUser; resolved: ResolvedConnection | undefined },
    timeoutMs: number,
  ): Promise<DoctorCheckResult> {
    const now = this.deps.now ?? Date.now
    const started = now()
    const { id, title, spec } = check
    const deps = {
      call: context.call,
      user: context.user,
      audit: this.deps.audit,
      ...(context.resolved ? { resolved: context.resolved } : {}),
    }
    try {
      const { status, evidence } = await withBudget(
        context.call.session.serverId,
        timeoutMs,
        context.call.options.signal,
        (signal) => check.run(createProbe(deps, signal, timeoutMs)),
      )
      return { id, title, spec, status, evidence: bounded(evidence), durationMs: now() - started }
    } catch (error) {
      const info = toErrorInfo(error)
      const evidence = {
        expected: 'the check completes',
        found: info.message,
        reply: { error: info },
      }
      return { id, title, spec, status: 'fail', evidence, durationMs: now() - started }
    }
  }
}

/**
 * The server's dialect; a server of no known family still gets the protocol checks and the
 * generic one (which looks for a search-like tool), its report saying `dialect: null`.
 */
function dialectOrGeneric(session: ServerSession): { adapter: DialectAdapter; info: DialectInfo } {
  const info = detect(session.tools, session.config.dialect)
  return { adapter: adapterFor(info.id ?? 'generic'), info }
}

/** Evidence small enough to keep and show: long requests and replies are cut. */
function bounded(evidence: CheckEvidence): CheckEvidence {
  const cut = (value: unknown): unknown => {
    const text = JSON.stringify(value) ?? ''
    return text.length > MAX_EVIDENCE_CHARS ? `${text.slice(0, MAX_EVIDENCE_CHARS)}…` : value
  }
  const out: CheckEvidence = { expected: evidence.expected, found: evidence.found }
  if (evidence.request !== undefined) out.request = cut(evidence.request)
  if (evidence.reply !== undefined) out.reply = cut(evidence.reply)
  if (evidence.offered) out.offered = evidence.offered
  return out
}
