import packageJson from '../../../package.json'
import type { AppInfo } from '../../shared/ipc/app'
import { RegistryStore } from './config/store'
import { EventBus } from './events'
import { PRODUCT_NAME, defaultDataDir } from './paths'

export interface CoreOptions {
  /** `--config FILE`; otherwise the layered lookup decides. */
  configPath?: string
  /** Defaults to {@link defaultDataDir}. */
  dataDir?: string
  env?: NodeJS.ProcessEnv
  /** Extra runtime versions to report, e.g. Electron's. */
  versions?: Record<string, string>
  /** Reload the registry when its files change (default true; one-shot CLI commands say false). */
  watch?: boolean
}

/**
 * The whole console without a window: every service, composed in one place. Electron main,
 * the browser host, the CLI and the tests all build it through {@link createCore}.
 */
export class Core {
  readonly events = new EventBus()
  readonly dataDir: string
  readonly env: NodeJS.ProcessEnv
  /** rag-mcp.json: the running registry, live reload, safe save and import. */
  readonly registry: RegistryStore
  private disposed = false

  private constructor(private readonly options: CoreOptions) {
    this.env = options.env ?? process.env
    this.dataDir = options.dataDir ?? defaultDataDir(this.env)
    this.registry = new RegistryStore({
      lookup: {
        dataDir: this.dataDir,
        env: this.env,
        ...(options.configPath ? { configPath: options.configPath } : {}),
      },
      events: this.events,
      watch: options.watch ?? true,
    })
  }

  static async create(options: CoreOptions = {}): Promise<Core> {
    const core = new Core(options)
    try {
      await core.registry.start()
    } catch (error) {
      await core.dispose()
      throw error
    }
    return core
  }

  info(): AppInfo {
    return {
      productName: PRODUCT_NAME,
      version: packageJson.version,
      versions: { node: process.versions.node, ...this.options.versions },
      platform: process.platform,
      dataDir: this.dataDir,
      registry: this.registry.current().source,
    }
  }

  /** Stops every watcher, child process, connection and timer the core owns. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    await this.registry.dispose()
    this.events.clear()
  }
}

export const createCore = (options?: CoreOptions): Promise<Core> => Core.create(options)
