import packageJson from '../../../package.json'
import type { ServerConfig } from '../../shared/config/schema'
import type { AppInfo } from '../../shared/ipc/app'
import type { RegistrySource } from '../../shared/model/registry'
import { resolveRegistrySource } from './config/lookup'
import { EventBus } from './events'
import { PRODUCT_NAME, defaultDataDir } from './paths'
import { ConnectionPool, type PoolOptionsInput } from './pool/pool'
import type { ResolvedConnection, SecretRef, SecretResolver } from './secrets/types'

export interface CoreOptions {
  /** `--config FILE`; otherwise the layered lookup decides. */
  configPath?: string
  /** Defaults to {@link defaultDataDir}. */
  dataDir?: string
  env?: NodeJS.ProcessEnv
  /** Extra runtime versions to report, e.g. Electron's. */
  versions?: Record<string, string>
  /** Resolves secret references at connect time; see {@link unresolvedSecrets} otherwise. */
  secrets?: SecretResolver
  /** Pool tunables (probe period, concurrency, backoff, …). */
  pool?: PoolOptionsInput
}

/**
 * The whole console without a window: every service, composed in one place. Electron main,
 * the browser host, the CLI and the tests all build it through {@link createCore}.
 */
export class Core {
  readonly events = new EventBus()
  /** One live MCP connection per enabled server. */
  readonly pool: ConnectionPool
  readonly dataDir: string
  readonly env: NodeJS.ProcessEnv
  private readonly registrySource: RegistrySource
  private disposed = false

  private constructor(private readonly options: CoreOptions) {
    this.env = options.env ?? process.env
    this.dataDir = options.dataDir ?? defaultDataDir(this.env)
    this.registrySource = resolveRegistrySource({
      dataDir: this.dataDir,
      env: this.env,
      ...(options.configPath ? { configPath: options.configPath } : {}),
    })
    this.pool = new ConnectionPool({
      events: this.events,
      secrets: options.secrets ?? unresolvedSecrets,
      ...(options.pool ? { options: options.pool } : {}),
    })
  }

  static async create(options: CoreOptions = {}): Promise<Core> {
    return new Core(options)
  }

  info(): AppInfo {
    return {
      productName: PRODUCT_NAME,
      version: packageJson.version,
      versions: { node: process.versions.node, ...this.options.versions },
      platform: process.platform,
      dataDir: this.dataDir,
      registry: this.registrySource,
    }
  }

  /** Stops every watcher, child process, connection and timer the core owns. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    await this.pool.dispose()
    this.events.clear()
  }
}

const SECRET_REF = /\$\{(keychain|env|session):([^}]+)\}/g

/**
 * The resolver used when none is given: values without references pass as written and every
 * `${kind:NAME}` reference is reported missing, so such servers wait in `action_required`.
 */
const unresolvedSecrets: SecretResolver = {
  async resolve(config: ServerConfig): Promise<ResolvedConnection> {
    const missing: SecretRef[] = []
    const texts = [config.url ?? '', ...Object.values(config.headers), ...Object.values(config.env)]
    for (const text of texts) {
      for (const match of text.matchAll(SECRET_REF)) {
        missing.push({ kind: match[1] as SecretRef['kind'], name: match[2]! })
      }
    }
    return {
      ...(config.url ? { url: config.url } : {}),
      headers: { ...config.headers },
      env: { ...config.env },
      missing,
    }
  },
}

export const createCore = (options?: CoreOptions): Promise<Core> => Core.create(options)
