import { parseRegistryDocument } from '#shared/config/document'
import { normalizeEntry } from '#shared/config/normalize'
import {
  keychainMove,
  maskArgs,
  maskPlaintextSecrets,
  plaintextSecretReason,
  plaintextSecretValues,
} from '#shared/config/plaintext-secrets'
import type { ServerConfig, ServerEntry } from '#shared/config/schema'
import { ConsoleError } from '#shared/errors'
import type { ProtocolEntry, TryServer, TrySpec } from '#shared/ipc/workbench'
import type { PoolServerTools } from '#shared/ipc/servers'
import type { PoolAuth } from '../auth/pool-auth'
import { TRIED_ORIGIN } from '../auth/sign-in-error'
import { detect } from '../dialects/registry'
import { EventBus } from '../events'
import type { Logger } from '../log'
import type { ElicitationHandler } from '../pool/elicitation'
import { ConnectionPool, type PoolOptionsInput } from '../pool/pool'
import type { Redactor, SecretResolver } from '../secrets/types'

export interface TryServersDeps {
  secrets: SecretResolver
  redactor: Redactor
  /** Ids already taken by the registry. */
  taken: (id: string) => boolean
  onProtocol?: (server: string, entry: ProtocolEntry) => void
  logger?: Logger
  pool?: PoolOptionsInput
  /** OAuth, as for registry servers (their tokens stay in memory: the server is not saved). */
  auth?: PoolAuth
  /** Who answers the forms a tried server asks for (the app's windows). */
  elicit?: ElicitationHandler
}

/** Servers tried at once, at most. */
const MAX_TRIED = 20

/**
 * Servers given by hand ("try a server without saving it"): connected in a pool of their own,
 * kept in memory only. Values that look like credentials (headers, a URL's password and
 * secret-looking query values, `--api-key x` / `--token=x` arguments) are registered with the
 * redactor before the first request, so they never reach a log, an event or a response.
 */
export class TryServers {
  readonly pool: ConnectionPool
  private readonly tried = new Map<string, { config: ServerConfig; spec: TrySpec }>()
  private next = 1

  constructor(private readonly deps: TryServersDeps) {
    // Their status changes are not the registry's: nobody outside listens, except for the
    // sign-ins they ask for.
    const events = new EventBus()
    events.on('server:status', ({ server, status }) => deps.auth?.statusChanged?.(server, status))
    this.pool = new ConnectionPool({
      events,
      secrets: deps.secrets,
      redactor: deps.redactor,
      ...(deps.logger ? { logger: deps.logger } : {}),
      ...(deps.pool ? { options: deps.pool } : {}),
      ...(deps.auth ? { auth: deps.auth } : {}),
      ...(deps.elicit ? { elicit: deps.elicit } : {}),
    })
    if (deps.onProtocol) this.pool.onProtocol(deps.onProtocol)
  }

  has(server: string): boolean {
    return this.tried.has(server)
  }

  /** The servers being tried, oldest first. */
  list(): TryServer[] {
    return [...this.tried].map(([server, { spec }]) => describe(server, spec))
  }

  spec(server: string): TrySpec | undefined {
    return this.tried.get(server)?.spec
  }

  /** The effective config of a server being tried. */
  config(server: string): ServerConfig | undefined {
    return this.tried.get(server)?.config
  }

  /** Its tools, with the dialect they fit (the form leaves out what the console fills in). */
  async tools(server: string, refresh: boolean): Promise<PoolServerTools> {
    const listed = await this.pool.tools(server, { refresh })
    return { ...listed, dialect: detect(listed.tools).id }
  }

  /** Connects (in the background) to a server given by hand; resolves with its id. */
  async open(spec: TrySpec, id?: string): Promise<TryServer> {
    if (this.tried.size >= MAX_TRIED) {
      throw new ConsoleError({
        code: 'invalid_argument',
        origin: 'local',
        message: `${MAX_TRIED} servers are being tried already: close one first`,
      })
    }
    const server = id ?? this.freeId()
    if (spec.transport !== 'stdio') registerHeaderSecrets(this.deps.redactor, spec.headers ?? {})
    for (const value of plaintextSecretValues(entryOf(spec))) this.deps.redactor.add(value)
    const config = normalizeEntry(server, entryOf(spec), {
      origin: TRIED_ORIGIN,
      inputDocs: () => parseRegistryDocument('workbench', '{}'),
    })
    this.tried.set(server, { config, spec })
    await this.pool.apply([...this.tried.values()].map((t) => t.config))
    return describe(server, spec)
  }

  async close(server: string): Promise<boolean> {
    if (!this.tried.delete(server)) return false
    await this.pool.apply([...this.tried.values()].map((t) => t.config))
    this.deps.auth?.forget?.(server)
    return true
  }

  /** A registry file holding the tried server under `id` (values as given: the import moves secrets). */
  registryText(server: string, id: string): string {
    const spec = this.tried.get(server)?.spec
    if (!spec) throw notTried(server)
    return JSON.stringify({ [id]: entryOf(spec) }, null, 2)
  }

  dispose(): Promise<void> {
    this.tried.clear()
    return this.pool.dispose()
  }

  private freeId(): string {
    for (;;) {
      const id = `try-${this.next++}`
      if (!this.tried.has(id) && !this.deps.taken(id)) return id
    }
  }
}

/**
 * Registers the credential-looking values of headers typed by hand with the redactor (of
 * `Bearer …`, the token: the scheme stays readable), so they are blanked out of logs, events,
 * errors and output.
 */
export function registerHeaderSecrets(redactor: Redactor, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!plaintextSecretReason(name, value) && !/^(authorization|x-api-key)$/i.test(name)) continue
    redactor.add(keychainMove(name, value).secret)
  }
}

function entryOf(spec: TrySpec): ServerEntry {
  if (spec.transport === 'stdio') {
    return { transport: 'stdio', command: spec.command, args: spec.args ?? [] }
  }
  return { transport: spec.transport, url: spec.url, headers: spec.headers ?? {} }
}

function describe(server: string, spec: TrySpec): TryServer {
  if (spec.transport === 'stdio') {
    return {
      server,
      transport: 'stdio',
      command: spec.command,
      args: maskArgs(spec.args ?? []),
      headerNames: [],
    }
  }
  return {
    server,
    transport: spec.transport,
    url: maskPlaintextSecrets({ url: spec.url }).url,
    headerNames: Object.keys(spec.headers ?? {}),
  }
}

export function notTried(server: string): ConsoleError {
  return new ConsoleError({
    code: 'not_found',
    origin: 'local',
    server,
    message: `server ${server} is not being tried (closed, or the app restarted): try it again`,
  })
}
