import { FileWatchers } from '../config/file-watch'
import type { SettingsStore } from '../services/settings'
import type { Monitoring } from './monitoring'

/**
 * Keeps the opt-in `/metrics` endpoint as settings.json says while the console runs: a change
 * made by hand, or by another console on the same data folder, takes at once without a restart.
 * The file is watched; a switch turned here (Health → Metrics for Prometheus) is served before it
 * is saved, so following it changes nothing.
 */
export class MetricsSetting {
  private queue: Promise<void> = Promise.resolve()

  private constructor(
    private readonly settings: SettingsStore,
    private readonly monitoring: Monitoring,
    private readonly onError: (message: string) => void,
    private readonly watchers: FileWatchers,
    private readonly unsubscribe: () => unknown,
  ) {}

  static async follow(options: {
    file: string
    settings: SettingsStore
    monitoring: Monitoring
    onError: (message: string) => void
  }): Promise<MetricsSetting> {
    // Reading the settings takes an edit of the file in, which tells the listener below.
    const watchers = new FileWatchers(() => void options.settings.metrics())
    const follower: MetricsSetting = new MetricsSetting(
      options.settings,
      options.monitoring,
      options.onError,
      watchers,
      options.settings.onChanged(() => follower.apply()),
    )
    await watchers.set([options.file])
    return follower
  }

  async dispose(): Promise<void> {
    this.unsubscribe()
    await this.watchers.close()
    await this.queue
  }

  /** Serves, moves or stops the endpoint when the setting and what is served differ. */
  private apply(): void {
    this.queue = this.queue.then(async () => {
      const wanted = this.settings.metrics()
      const served = this.monitoring.endpoint
      const same = wanted.enabled
        ? served !== undefined && (wanted.port === 0 || wanted.port === served.port)
        : served === undefined
      if (same) return
      try {
        await this.monitoring.serveMetrics(wanted.enabled ? wanted.port : undefined)
      } catch (error) {
        this.onError(
          `Metrics are not served: ${error instanceof Error ? error.message : String(error)} (settings.json "metrics.port")`,
        )
      }
    })
  }
}
