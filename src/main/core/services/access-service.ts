import { ConsoleError, type ErrorInfo } from '#shared/errors'
import type { AuditEntry } from '#shared/model/operations'
import type { AccessCheck, AccessResult, LinkCheck, LinkVerdict } from '#shared/model/rag'
import type { Profile } from '#shared/model/user'
import type { EventBus } from '../events'
import { explainAccess } from './access-explain'
import { mapBounded } from './budget'
import { checkLink, type LinkCheckOptions } from './link-check'
import type { LinkPolicy } from './link-policy'
import type { ServerCalls } from './server-calls'
import { actingUser, targetError } from './targets'
import { TtlCache } from './ttl-cache'
import type { ActiveProfile, RegistryReader } from './types'

/** Spec 000 suggests caching verification results briefly, e.g. 5 minutes. */
export const ACCESS_CACHE_MS = 5 * 60_000
/** Checks in flight at once in {@link AccessService.checkAll}. */
export const CHECK_ALL_CONCURRENCY = 4
const LINK_TIMEOUT_MS = 10_000

/** A citation to check: the server and segment it came from, and/or its link. */
export interface AccessTarget {
  server?: string
  segmentId?: string
  url?: string
}

export interface AccessServiceDeps {
  registry: RegistryReader
  calls: ServerCalls
  profile: ActiveProfile
  events: EventBus
  /** The HTTP check (tests may shorten its timeout); defaults to {@link checkLink}. */
  checkLink?: (url: string, options: LinkCheckOptions) => Promise<LinkCheck>
  /** Which addresses links may be fetched from (see `link-policy.ts`); default: any. */
  policy?: LinkPolicy
  /** Where each check's verdict is recorded (the audit log). */
  audit?: { record(entry: AuditEntry): void }
  now?: () => number
  ttlMs?: number
  concurrency?: number
}

export interface AccessCheckOptions {
  /** Ask again instead of answering from the 5-minute cache. */
  refresh?: boolean
  /** Check as this profile instead of the active one (support checks "for that user"). */
  profile?: Profile
  /** Budget for asking the server (default its `timeoutMs`); also caps the link check. */
  timeoutMs?: number
}

export interface CheckAllResult {
  batchId: string
  checks: AccessCheck[]
  counts: Partial<Record<LinkVerdict, number>>
}

/**
 * "Does this citation still open, for this user, today?" Asks the server's
 * `verify_document_access` as the acting user when it has one (fresh link, access level,
 * refusal), then fetches the link the user clicked and any fresh one the server issued
 * (http(s) only, redirects recorded, addresses decided by the link policy) and says what
 * happened in plain words. Results are cached 5 minutes per (server, segment, exact link,
 * acting user); `refresh` checks again.
 */
export class AccessService {
  private readonly cache: TtlCache<AccessCheck>
  private readonly inFlight = new Map<string, Promise<AccessCheck>>()
  private readonly lifetime = new AbortController()

  constructor(private readonly deps: AccessServiceDeps) {
    this.cache = new TtlCache(deps.ttlMs ?? ACCESS_CACHE_MS, 5_000, deps.now ?? Date.now)
  }

  async check(target: AccessTarget, options: AccessCheckOptions = {}): Promise<AccessCheck> {
    if (!target.url && !(target.server && target.segmentId)) {
      throw new ConsoleError({
        code: 'invalid_argument',
        message: 'name a link, or the server and segment id of a hit or citation, to check',
      })
    }
    const profile = options.profile ?? this.deps.profile()
    const key = cacheKey(target, profile)
    if (!options.refresh) {
      const cached = this.cache.get(key)
      if (cached) return { ...cached.value, cached: true }
    }
    const running = this.inFlight.get(key)
    if (running) return running
    const started = performance.now()
    const pending = this.deps.calls
      .operation('verify', () => this.verify(target, profile, options.timeoutMs))
      .then((check) => {
        this.cache.set(key, check)
        this.audited(check, performance.now() - started)
        return check
      })
    this.inFlight.set(key, pending)
    try {
      return await pending
    } finally {
      this.inFlight.delete(key)
    }
  }

  /**
   * Checks many citations, {@link CHECK_ALL_CONCURRENCY} at a time, each announced as
   * `access:progress` when done; a target with nothing to check becomes a `no_link` verdict
   * with its error instead of failing the batch.
   */
  async checkAll(
    batchId: string,
    targets: AccessTarget[],
    options: AccessCheckOptions = {},
  ): Promise<CheckAllResult> {
    let done = 0
    const checks = await mapBounded(
      targets,
      this.deps.concurrency ?? CHECK_ALL_CONCURRENCY,
      (target) =>
        this.check(target, options).catch((error) => {
          const check = this.failedCheck(target, error, options.profile)
          this.audited(check, 0)
          return check
        }),
      (check) => {
        done++
        this.deps.events.emit('access:progress', { batchId, done, total: targets.length, check })
      },
    )
    const counts: CheckAllResult['counts'] = {}
    for (const check of checks) counts[check.verdict] = (counts[check.verdict] ?? 0) + 1
    return { batchId, checks, counts }
  }

  /** Forgets every cached result (e.g. after the active profile changed its identity). */
  clear(): void {
    this.cache.clear()
  }

  /** Stops link checks in flight and closes the connections the link checker kept. */
  dispose(): void {
    this.lifetime.abort()
    void this.deps.policy?.close().catch(() => undefined)
    this.cache.clear()
  }

  private async verify(
    target: AccessTarget,
    profile: Profile,
    timeoutMs?: number,
  ): Promise<AccessCheck> {
    const now = this.deps.now ?? Date.now
    const user = actingUser(profile)
    let access: AccessResult | undefined
    let verifyError: ErrorInfo | undefined
    if (target.server && target.segmentId) {
      const asked = await this.ask(target.server, target.segmentId, profile, timeoutMs)
      if ('error' in asked) verifyError = asked.error
      else access = asked.access
    }
    const refreshed = access?.refreshedUrl
    const url = target.url ?? refreshed
    // Even a refused citation's link is checked: whether it still opens matters to support.
    const [link, freshLink] = await Promise.all([
      url ? this.fetchLink(url, timeoutMs) : undefined,
      target.url && refreshed && refreshed !== target.url
        ? this.fetchLink(refreshed, timeoutMs)
        : undefined,
    ])
    const { verdict, explanation, conflict } = explainAccess({
      ...(target.server ? { server: target.server } : {}),
      user: user.userId,
      ...(target.url ? { originalUrl: target.url } : {}),
      ...(access ? { access } : {}),
      ...(verifyError ? { verifyError } : {}),
      ...(link ? { link } : {}),
      ...(freshLink ? { freshLink } : {}),
      now: Date.now(),
    })
    const check: AccessCheck = {
      user,
      verdict,
      explanation,
      checkedAt: now(),
      cached: false,
    }
    if (target.server) check.server = target.server
    if (target.segmentId) check.segmentId = target.segmentId
    if (url) check.url = url
    if (access) check.access = access
    if (link) check.link = link
    if (freshLink) check.freshLink = freshLink
    if (conflict) check.conflict = true
    if (verifyError) check.error = verifyError
    return check
  }

  private async ask(
    server: string,
    segmentId: string,
    profile: Profile,
    timeoutMs?: number,
  ): Promise<{ access: AccessResult } | { error: ErrorInfo }> {
    const config = this.deps.registry.server(server)
    const problem = targetError(server, config, profile)
    if (!config || problem) return { error: problem! }
    const outcome = await this.deps.calls.run<AccessResult>(
      config,
      {
        user: actingUser(profile),
        operation: 'verify',
        sources: [],
        budgetMs: timeoutMs ?? config.timeoutMs,
        signal: this.lifetime.signal,
      },
      async ({ session, adapter, options }) => {
        if (!adapter.verifyAccess || !adapter.capabilities(session.tools).verify) {
          return {
            value: { server, segmentId, hasAccess: null, checked: false, violations: [] },
          }
        }
        const access = await adapter.verifyAccess(session, segmentId, options)
        return { value: access, resultCount: access.hasAccess ? 1 : 0 }
      },
    )
    return outcome.ok ? { access: outcome.value } : { error: outcome.error }
  }

  private fetchLink(url: string, timeoutMs?: number): Promise<LinkCheck> {
    const run = this.deps.checkLink ?? checkLink
    return run(url, {
      timeoutMs: Math.min(LINK_TIMEOUT_MS, timeoutMs ?? LINK_TIMEOUT_MS),
      signal: this.lifetime.signal,
      ...(this.deps.policy ? { policy: this.deps.policy } : {}),
    })
  }

  private audited(check: AccessCheck, latencyMs: number): void {
    this.deps.audit?.record({
      at: new Date(check.checkedAt).toISOString(),
      user: check.user.userId,
      server: check.server ?? '',
      operation: 'access',
      outcome: check.error ? 'error' : 'ok',
      ...(check.error ? { errorCode: check.error.code } : {}),
      latencyMs,
      verdict: check.verdict,
    })
  }

  private failedCheck(target: AccessTarget, failure: unknown, profile?: Profile): AccessCheck {
    const error = ConsoleError.from(failure).toInfo()
    const check: AccessCheck = {
      user: actingUser(profile ?? this.deps.profile()),
      verdict: 'no_link',
      explanation: error.message,
      checkedAt: (this.deps.now ?? Date.now)(),
      cached: false,
      error,
    }
    if (target.server) check.server = target.server
    if (target.segmentId) check.segmentId = target.segmentId
    if (target.url) check.url = target.url
    return check
  }
}

/** One cache entry per (server, segment, exact link, acting identity). */
function cacheKey(target: AccessTarget, profile: Profile): string {
  return JSON.stringify([
    target.server ?? '',
    target.segmentId ?? '',
    target.url ?? '',
    profile.userId,
    profile.sessionTags,
    profile.humanUid ?? '',
    profile.groups,
  ])
}
