import { join } from 'node:path'
import packageJson from '../../../package.json'
import type { ServerConfig } from '../../shared/config/schema'
import type { AppInfo } from '../../shared/ipc/app'
import type { RegistrySource } from '../../shared/model/registry'
import { resolveRegistrySource } from './config/lookup'
import { EventBus } from './events'
import { createLogger, type Logger } from './log'
import { PRODUCT_NAME, defaultDataDir } from './paths'
import { KeychainStore, type KeychainStoreOptions } from './secrets/keychain-store'
import { createRedactor, type SecretRedactor } from './secrets/redactor'
import { SecretsService } from './secrets/secrets-service'
import { SessionTokens } from './secrets/session-tokens'

export interface CoreOptions {
  /** `--config FILE`; otherwise the layered lookup decides. */
  configPath?: string
  /** Defaults to {@link defaultDataDir}. */
  dataDir?: string
  env?: NodeJS.ProcessEnv
  /** Extra runtime versions to report, e.g. Electron's. */
  versions?: Record<string, string>
  /**
   * The OS keychain unless told otherwise: tests pass `openEntry` to make it unavailable, or a
   * short `timeoutMs`.
   */
  keychain?: Omit<KeychainStoreOptions, 'redactor'>
}

/**
 * The whole console without a window: every service, composed in one place. Electron main,
 * the browser host, the CLI and the tests all build it through {@link createCore}.
 */
export class Core {
  readonly events = new EventBus()
  readonly dataDir: string
  readonly env: NodeJS.ProcessEnv
  /** Every IPC response, error and log line passes through it. */
  readonly redactor: SecretRedactor = createRedactor()
  /** JSON lines in `<dataDir>/logs/main.log`, redacted. */
  readonly log: Logger
  /** Keychain entries, session tokens, the resolver the pool connects with, change events. */
  readonly secrets: SecretsService
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
    this.log = createLogger({ dir: join(this.dataDir, 'logs'), redactor: this.redactor })
    this.secrets = new SecretsService({
      keychain: new KeychainStore({ ...options.keychain, redactor: this.redactor }),
      session: new SessionTokens({ redactor: this.redactor }),
      redactor: this.redactor,
      env: this.env,
      servers: () => this.serverConfigs(),
    })
    this.secrets.onChanged((change) => this.events.emit('secrets:changed', change))
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

  /** The effective config of every server in the registry. */
  serverConfigs(): ServerConfig[] {
    return []
  }

  /** Stops every watcher, child process, connection and timer the core owns. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    this.secrets.dispose()
    this.events.clear()
  }
}

export const createCore = (options?: CoreOptions): Promise<Core> => Core.create(options)
