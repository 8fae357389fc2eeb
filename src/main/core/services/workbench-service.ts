import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { ConsoleError, type ErrorInfo } from '#shared/errors'
import type {
  ArgumentProblem,
  HistoryEntry,
  LogLevelName,
  Page,
  ProtocolEntry,
  TryServer,
  TrySpec,
  WorkbenchCall,
  WorkbenchCallResult,
} from '#shared/ipc/workbench'
import type { ActingUser } from '#shared/model/user'
import { cliCommand, curlCommand, type CopyTarget } from '#shared/workbench/copy'
import type { GenericSearchMapping } from '#shared/config/schema'
import type { RawConfig } from '#shared/ipc/registry'
import type { MappingChoice, MappingPreview, MappingProposal } from '#shared/model/mapping'
import type { PoolAuth } from '../auth/pool-auth'
import { previewMapping, proposeMapping } from '../dialects/mapping-proposal'
import { queryArgument } from '../dialects/search-suggestion'
import type { RegistryStore } from '../config/store'
import { withUsername } from '../dialects/rag-tools-v1'
import { toolErrorOf } from '../dialects/payload'
import { detect, dialectJudges, sendsIdentity } from '../dialects/registry'
import type { EventBus } from '../events'
import type { ElicitationHandler } from '../pool/elicitation'
import type { ConnectionPool, PoolOptionsInput } from '../pool/pool'
import type { CallOptions, ServerSession } from '../pool/types'
import type { Redactor, SecretResolver } from '../secrets/types'
import { AuditedSession, attemptEntry, type AuditContext, type AuditSink } from './audited-session'
import { ProtocolEvents } from './protocol-events'
import { SavedRequests } from './saved-requests'
import { actingUser, targetError } from './targets'
import { ArgumentValidator } from './tool-arguments'
import { TryServers } from './try-servers'
import type { ActiveProfile } from './types'
import { CancellableRuns } from './cancellable-runs'

export interface WorkbenchDeps {
  pool: ConnectionPool
  registry: Pick<RegistryStore, 'server' | 'applyImport' | 'draftField'>
  audit: AuditSink
  profile: ActiveProfile
  secrets: SecretResolver
  redactor: Redactor
  events: EventBus
  /** `<dataDir>/workbench`. */
  dir: string
  /** Pool tunables for the tried servers' pool. */
  tryPool?: PoolOptionsInput
  /** OAuth for tried servers. */
  auth?: PoolAuth
  /** Who answers the forms tried servers ask for. */
  elicit?: ElicitationHandler
  now?: () => number
}

/** Calls kept in the history per server. */
const HISTORY = 50
/** Pages followed by {@link WorkbenchService.listAll}. */
const MAX_PAGES = 100

/**
 * The protocol workbench: any tool of any server called as the acting profile (arguments
 * checked against its input schema), resources, prompts, `logging/setLevel`, the protocol log,
 * servers tried without saving them, "copy as" and saved requests. Every request it makes is
 * audited under the operation `workbench`.
 */
export class WorkbenchService {
  readonly tries: TryServers
  readonly saved: SavedRequests
  private readonly validator = new ArgumentValidator()
  private readonly running = new CancellableRuns((id) => invalid(`call ${id} is already running`))
  private readonly history = new Map<string, HistoryEntry[]>()
  private readonly pendingAudit = new Set<Promise<void>>()
  private readonly unsubscribe: () => void
  private readonly protocolEvents: ProtocolEvents

  constructor(private readonly deps: WorkbenchDeps) {
    this.protocolEvents = new ProtocolEvents(deps.events)
    const onProtocol = (server: string, entry: ProtocolEntry): void =>
      this.protocolEvents.add(server, entry)
    this.tries = new TryServers({
      secrets: deps.secrets,
      redactor: deps.redactor,
      taken: (id) => deps.registry.server(id) !== undefined,
      onProtocol,
      ...(deps.tryPool ? { pool: deps.tryPool } : {}),
      ...(deps.auth ? { auth: deps.auth } : {}),
      ...(deps.elicit ? { elicit: deps.elicit } : {}),
    })
    this.saved = new SavedRequests(join(deps.dir, 'saved-requests.json'), deps.redactor)
    this.unsubscribe = deps.pool.onProtocol(onProtocol)
  }

  // --- tools --------------------------------------------------------------------------------

  /** Problems with the arguments for the tool's input schema (the tool must be listed). */
  async validate(call: WorkbenchCall): Promise<ArgumentProblem[]> {
    const session = await this.session(call.server)
    return this.problems(session, call.tool, this.withIdentity(session, call.arguments))
  }

  async call(
    call: WorkbenchCall & { callId?: string; timeoutMs?: number; skipValidation?: boolean },
  ): Promise<WorkbenchCallResult> {
    const callId = call.callId ?? randomUUID()
    return this.running.run(callId, async (signal) => {
      const started = this.now()
      const record = (outcome: HistoryEntry['outcome'], errorCode?: string): void =>
        this.remember({
          ...call,
          arguments: this.deps.redactor.redact(call.arguments),
          callId,
          at: started,
          outcome,
          latencyMs: this.now() - started,
          ...(errorCode ? { errorCode } : {}),
        })
      try {
        const result = await this.audited(
          call.server,
          call.timeoutMs,
          signal,
          async (session, options) => {
            const args = this.withIdentity(session, call.arguments)
            if (!call.skipValidation) {
              const problems = this.problems(session, call.tool, args)
              if (problems.length > 0) throw invalidArguments(call, problems)
            }
            return session.callTool(call.tool, args, { ...options, ...dialectJudges(session) })
          },
          // A result flagged `isError` is audited as the failure it is.
          (result, session) => toolErrorOf(result, session, call.tool),
        )
        const isError = result.isError === true
        record(isError ? 'tool_error' : 'ok')
        return {
          callId,
          server: call.server,
          tool: call.tool,
          result: this.deps.redactor.redact(result),
          isError,
          latencyMs: this.now() - started,
        }
      } catch (error) {
        record('error', ConsoleError.from(error).code)
        throw error
      }
    })
  }

  cancel(callId: string): boolean {
    return this.running.cancel(callId)
  }

  /** The latest calls, newest first (of one server, or of all). */
  calls(server?: string): HistoryEntry[] {
    const lists =
      server === undefined ? [...this.history.values()] : [this.history.get(server) ?? []]
    return lists.flat().sort((a, b) => b.at - a.at)
  }

  // --- resources and prompts ----------------------------------------------------------------

  resources(server: string, cursor?: string): Promise<Page<Record<string, unknown>>> {
    return this.page(server, 'resources', 'resources/list', 'resources', cursor)
  }

  async resourceTemplates(
    server: string,
    cursor?: string,
  ): Promise<Page<Record<string, unknown> & { variables: string[] }>> {
    const page = await this.page(
      server,
      'resources',
      'resources/templates/list',
      'resourceTemplates',
      cursor,
    )
    const items = page.items.map((item) => ({
      ...item,
      variables: templateVariables(String(item.uriTemplate ?? '')),
    }))
    return { ...page, items }
  }

  async readResource(
    server: string,
    uri: string,
  ): Promise<{ contents: Record<string, unknown>[] }> {
    const result = await this.request(server, 'resources/read', { uri })
    return { contents: objects((result as { contents?: unknown } | null)?.contents) }
  }

  async subscribe(
    server: string,
    uri: string,
    subscribe: boolean,
  ): Promise<{ subscribed: boolean }> {
    await this.request(server, subscribe ? 'resources/subscribe' : 'resources/unsubscribe', { uri })
    return { subscribed: subscribe }
  }

  prompts(server: string, cursor?: string): Promise<Page<Record<string, unknown>>> {
    return this.page(server, 'prompts', 'prompts/list', 'prompts', cursor)
  }

  async getPrompt(
    server: string,
    name: string,
    args: Record<string, string> = {},
  ): Promise<Record<string, unknown>> {
    const result = await this.request(server, 'prompts/get', { name, arguments: args })
    return (result ?? {}) as Record<string, unknown>
  }

  /**
   * Every page of a list, following `nextCursor` (bounded); `offered: false` when the server
   * offers none (see {@link Page.offered}).
   */
  async listAll(
    server: string,
    list: (server: string, cursor?: string) => Promise<Page<Record<string, unknown>>>,
  ): Promise<{ items: Record<string, unknown>[]; offered: boolean; why?: string }> {
    const items: Record<string, unknown>[] = []
    let cursor: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const next = await list(server, cursor)
      if (next.offered === false)
        return { items, offered: false, ...(next.why ? { why: next.why } : {}) }
      items.push(...next.items)
      if (!next.nextCursor || next.nextCursor === cursor) break
      cursor = next.nextCursor
    }
    return { items, offered: true }
  }

  // --- protocol log -------------------------------------------------------------------------

  log(server: string, afterSeq?: number): ProtocolEntry[] {
    return this.poolOf(server).protocol(server).list(afterSeq)
  }

  logEntry(server: string, seq: number): { entry: ProtocolEntry; full: string | null } {
    const found = this.poolOf(server).protocol(server).entry(seq)
    if (!found) {
      throw new ConsoleError({
        code: 'not_found',
        origin: 'local',
        server,
        message: `entry ${seq} of server ${server}'s protocol log is no longer kept`,
      })
    }
    return found
  }

  clearLog(server: string): number {
    return this.poolOf(server).protocol(server).clear()
  }

  async setLevel(server: string, level: LogLevelName): Promise<LogLevelName> {
    await this.request(server, 'logging/setLevel', { level })
    return level
  }

  // --- servers tried by hand ----------------------------------------------------------------

  tryServer(spec: TrySpec): Promise<TryServer> {
    return this.tries.open(spec)
  }

  /** Writes a tried server into rag-mcp.json as `id`; credentials go to the keychain. */
  async addTried(
    server: string,
    id: string,
    baseHash: string,
  ): Promise<{ id: string; movedSecrets: { name: string; where: string }[] }> {
    const text = this.tries.registryText(server, id)
    const result = await this.deps.registry.applyImport({
      source: { text, name: 'workbench' },
      servers: [id],
      baseHash,
    })
    if (result.status !== 'saved') {
      throw new ConsoleError({
        code: 'conflict',
        origin: 'local',
        message:
          result.status === 'conflict' && result.untrusted
            ? result.untrusted
            : `rag-mcp.json was not saved (${result.status}): reload it and add the server again`,
      })
    }
    return { id, movedSecrets: result.movedSecrets.map(({ name, where }) => ({ name, where })) }
  }

  // --- search mapping from a reply ----------------------------------------------------------

  /**
   * A generic search mapping proposed from a call's result, with the hits it makes of it.
   * The tool's input schema tells which argument carried the query. Nothing is called.
   */
  async proposeMapping(
    request: WorkbenchCall & { result: unknown; choice?: MappingChoice | undefined },
  ): Promise<{ proposal: MappingProposal; preview: MappingPreview | null }> {
    const session = await this.session(request.server)
    const info = session.tools.find((tool) => tool.name === request.tool)
    const argument = info ? queryArgument(info) : undefined
    const proposal = proposeMapping(
      request.result,
      {
        tool: request.tool,
        arguments: request.arguments,
        ...(argument ? { queryArgument: argument } : {}),
      },
      request.choice,
    )
    const preview =
      proposal.problem === undefined
        ? previewMapping(request.result, request.server, proposal.mapping)
        : null
    // The mapping is made of what the page sent; what was read from the reply is redacted.
    const { mapping, ...read } = proposal
    return {
      proposal: { mapping, ...this.deps.redactor.redact(read) },
      preview: this.deps.redactor.redact(preview),
    }
  }

  /** rag-mcp.json with the server mapped (see `RegistryStore.draftField`); nothing is written. */
  mappingDraft(
    server: string,
    mapping: GenericSearchMapping,
  ): Promise<{ raw: RawConfig; text: string }> {
    if (this.tries.has(server)) {
      return Promise.reject(
        new ConsoleError({
          code: 'invalid_argument',
          origin: 'local',
          server,
          message: `server ${server} is only being tried: add it to rag-mcp.json first, then map its search`,
        }),
      )
    }
    return this.deps.registry.draftField(server, 'dialect', { search: mapping })
  }

  // --- copy ---------------------------------------------------------------------------------

  copy(call: WorkbenchCall): { cli: string; curl: string | null } {
    const user = this.user()
    const target = this.copyTarget(call.server)
    const copyUser = {
      userId: user.userId,
      sessionTags: user.sessionTags,
      ...(user.humanUid ? { humanUid: user.humanUid } : {}),
    }
    // cURL sends the identity headers only where the console sends them.
    const config = this.tries.has(call.server)
      ? { dialect: 'auto' as const }
      : this.deps.registry.server(call.server)
    const tools = this.poolOf(call.server).knownTools(call.server)
    const identity = config !== undefined && sendsIdentity(config, tools)
    return {
      cli: cliCommand(call, target, copyUser),
      curl: curlCommand(call, target, identity ? copyUser : undefined),
    }
  }

  /** Resolves once every audit line so far is written. */
  async idle(): Promise<void> {
    while (this.pendingAudit.size > 0) await Promise.allSettled([...this.pendingAudit])
  }

  async dispose(): Promise<void> {
    this.unsubscribe()
    this.running.dispose()
    this.protocolEvents.dispose()
    await this.tries.dispose()
    await this.idle()
  }

  // --- helpers ------------------------------------------------------------------------------

  private copyTarget(server: string): CopyTarget {
    const spec = this.tries.spec(server)
    if (spec) {
      return spec.transport === 'stdio'
        ? { kind: 'stdio', command: spec.command, args: spec.args ?? [] }
        : { kind: 'url', transport: spec.transport, url: spec.url, headers: spec.headers ?? {} }
    }
    const config = this.deps.registry.server(server)
    if (!config) throw notFound(server)
    return {
      kind: 'registry',
      transport: config.transport,
      ...(config.url ? { url: config.url } : {}),
      headers: config.headers,
    }
  }

  private poolOf(server: string): ConnectionPool {
    return this.tries.has(server) ? this.tries.pool : this.deps.pool
  }

  /**
   * A ready session. A registry server must be enabled and visible to the acting profile, as
   * for every other operation; tried and command-line servers are the user's own.
   */
  private session(
    server: string,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ServerSession> {
    const refused = this.refusal(server)
    if (refused) return Promise.reject(new ConsoleError(refused))
    return this.poolOf(server).session(server, options)
  }

  /** Why the acting profile may not use a registry server (disabled, hidden), if it may not. */
  private refusal(server: string): ErrorInfo | undefined {
    const config = this.tries.has(server) ? undefined : this.deps.registry.server(server)
    return config && targetError(server, config, this.deps.profile())
  }

  private user(): ActingUser {
    return actingUser(this.deps.profile())
  }

  /** rag-tools-v1 servers take the acting user as `username`, set by the console. */
  private withIdentity(
    session: ServerSession,
    args: Record<string, unknown>,
  ): Record<string, unknown> {
    const dialect = detect(session.tools, session.config.dialect).id
    return dialect === 'rag-tools-v1' ? withUsername(args, this.user()) : args
  }

  private problems(
    session: ServerSession,
    tool: string,
    args: Record<string, unknown>,
  ): ArgumentProblem[] {
    const info = session.tools.find((t) => t.name === tool)
    if (!info) {
      return [{ path: '', message: `server ${session.serverId} lists no tool "${tool}"` }]
    }
    return this.validator.check(info.inputSchema, args)
  }

  /** A request other than `tools/call` (the pool makes a method the server lacks `unsupported`). */
  private request(
    server: string,
    method: string,
    params: Record<string, unknown>,
    extra: Pick<CallOptions, 'expectsError'> = {},
  ): Promise<unknown> {
    return this.audited(server, undefined, undefined, (session, options) =>
      session.request(method, params, { ...options, ...extra }),
    )
  }

  /**
   * One page of a list of an optional feature. A server whose `initialize` declared no such
   * capability is not asked (it offers none); one whose capabilities are unknown (no handshake)
   * is asked, and a "method not found" from it means the same.
   */
  private async page(
    server: string,
    feature: 'resources' | 'prompts',
    method: string,
    key: string,
    cursor: string | undefined,
  ): Promise<Page<Record<string, unknown>>> {
    const declared = (await this.session(server)).serverInfo?.capabilities
    if (declared && !declared.includes(feature)) {
      return { items: [], offered: false, why: `it declares no ${feature} capability` }
    }
    let result: Record<string, unknown> | null
    try {
      // Undeclared, the listing is a probe: "method not found" is an answer, not a failure.
      const probing = declared ? {} : { expectsError: true as const }
      result = (await this.request(server, method, cursor ? { cursor } : {}, probing)) as Record<
        string,
        unknown
      > | null
    } catch (error) {
      if (!declared && isMethodNotFound(error)) {
        return { items: [], offered: false, why: `it does not know ${method}` }
      }
      throw error
    }
    const page: Page<Record<string, unknown>> = { items: objects(result?.[key]) }
    if (typeof result?.nextCursor === 'string' && result.nextCursor !== '')
      page.nextCursor = result.nextCursor
    return page
  }

  /**
   * Runs requests on a server's session as the acting user, with one audit line per request;
   * `failed` names the failure a returned value stands for (a result flagged `isError`).
   */
  private async audited<T>(
    server: string,
    timeoutMs: number | undefined,
    signal: AbortSignal | undefined,
    work: (session: ServerSession, options: CallOptions) => Promise<T>,
    failed?: (value: T, session: ServerSession) => unknown,
  ): Promise<T> {
    const user = this.user()
    const context: AuditContext = { user, operation: 'workbench', sources: [] }
    const refused = this.refusal(server)
    if (refused) throw new ConsoleError(refused)
    let inner: ServerSession
    try {
      inner = await this.poolOf(server).session(server, {
        ...(signal ? { signal } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
      })
    } catch (error) {
      // No session, so no request: one line still records the attempt on a server the console
      // knows and why it failed, as the other operations' do.
      if (this.tries.has(server) || this.deps.registry.server(server)) {
        this.deps.audit.record(attemptEntry(server, context, { error }, this.now()))
      }
      throw error
    }
    const session = new AuditedSession(inner, this.deps.audit, context, () => this.now())
    const options: CallOptions = {
      operation: 'workbench',
      user,
      ...(signal ? { signal } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
    }
    let error: unknown
    try {
      const value = await work(session, options)
      error = failed?.(value, inner)
      return value
    } catch (failure) {
      error = failure
      throw failure
    } finally {
      const pending = session.settle(error === undefined ? {} : { error })
      this.pendingAudit.add(pending)
      void pending.finally(() => this.pendingAudit.delete(pending))
    }
  }

  private remember(entry: HistoryEntry): void {
    const list = this.history.get(entry.server) ?? []
    list.push(entry)
    if (list.length > HISTORY) list.splice(0, list.length - HISTORY)
    this.history.set(entry.server, list)
  }

  private now(): number {
    return (this.deps.now ?? Date.now)()
  }
}

/** The variable names of an RFC 6570 URI template (`{id}`, `{+path}`, `{?q,lang}`). */
export function templateVariables(template: string): string[] {
  const names: string[] = []
  for (const match of template.matchAll(/\{[+#./;?&]?([^}]*)\}/g)) {
    for (const part of match[1]!.split(',')) {
      const name = part.replace(/(\*|:\d+)$/, '').trim()
      if (name && !names.includes(name)) names.push(name)
    }
  }
  return names
}

function objects(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter(
        (item): item is Record<string, unknown> => typeof item === 'object' && item !== null,
      )
    : []
}

function invalid(message: string): ConsoleError {
  return new ConsoleError({ code: 'invalid_argument', origin: 'local', message })
}

function invalidArguments(call: WorkbenchCall, problems: ArgumentProblem[]): ConsoleError {
  const list = problems.map((p) => `${p.path || '(arguments)'} ${p.message}`).join('; ')
  return new ConsoleError({
    code: 'invalid_argument',
    origin: 'local',
    server: call.server,
    message: `server ${call.server}: the arguments do not fit tool ${call.tool}: ${list}`,
    details: { problems },
  })
}

function notFound(server: string): ConsoleError {
  return new ConsoleError({
    code: 'not_found',
    origin: 'local',
    server,
    message: `server ${server} is not in the registry or among the tried servers; check the id, or try the server first`,
  })
}

/** A server's "method not found" (JSON-RPC -32601), as the pool classified it. */
function isMethodNotFound(error: unknown): boolean {
  return (
    error instanceof ConsoleError && error.code === 'unsupported' && error.details?.code === -32601
  )
}
