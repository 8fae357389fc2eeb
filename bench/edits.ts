import { renameSync, writeFileSync } from 'node:fs'
import type { EventBus } from '#core/events'
import type { LiveCore } from '#test/support/core/live-core'
import type { RegistryUpdatedEvent } from '#shared/ipc/registry'
import { whenReady } from './demo-servers'
import { now, until } from './harness'

const EVENT_TIMEOUT_MS = 5_000
const BASE_TIMEOUT_MS = 15_000

function nextUpdate(events: EventBus): Promise<RegistryUpdatedEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off()
      reject(new Error(`no registry:updated within ${EVENT_TIMEOUT_MS} ms`))
    }, EVENT_TIMEOUT_MS)
    const off = events.on('registry:updated', (event) => {
      clearTimeout(timer)
      off()
      resolve(event)
    })
  })
}

/** What one write of rag-mcp.json did to a running console. */
export interface EditOutcome {
  /** From the write to `registry:updated` (the watcher's stability wait included). */
  updateMs: number
  /** From the write until every edited server was connected again (when all were). */
  reconnectedMs?: number
  /** Edited servers that did not reconnect. */
  notReconnected: number
  /** Servers not edited that reconnected anyway. */
  needless: number
  /** Servers not edited but reported as changed, added or removed. */
  wronglyChanged: number
  /** Edited servers not reported as changed. */
  missed: number
}

/**
 * Edits the given servers of a watched console's registry in one write (each one's timeoutMs
 * changes, so each must reconnect and nothing else may), in place or as an atomic rename-over
 * save, and waits for the edited servers to be connected again.
 */
export async function editServers(
  live: LiveCore,
  registry: Record<string, Record<string, unknown>>,
  edited: string[],
  edit: { stamp: number; atomic: boolean },
): Promise<EditOutcome> {
  const { core } = live
  for (const id of edited) registry[id]!.timeoutMs = BASE_TIMEOUT_MS + edit.stamp
  const text = `${JSON.stringify(registry, null, 2)}\n`
  const connecting = new Set<string>()
  const offStatus = core.events.on('server:status', ({ server, status }) => {
    if (status.state === 'connecting') connecting.add(server)
  })
  try {
    const update = nextUpdate(core.events)
    const started = now()
    if (edit.atomic) {
      writeFileSync(`${live.configPath}.tmp`, text)
      renameSync(`${live.configPath}.tmp`, live.configPath)
    } else {
      writeFileSync(live.configPath, text)
    }
    const event = await update
    const updateMs = now() - started
    let reconnectedMs: number | undefined
    try {
      const what = `${edited.length} edited servers to reconnect`
      await until(() => edited.every((id) => connecting.has(id)), EVENT_TIMEOUT_MS, what)
      await whenReady(core, edited)
      reconnectedMs = now() - started
    } catch {
      // Counted below: the edits that never reconnected.
    }
    const wanted = new Set(edited)
    return {
      updateMs,
      ...(reconnectedMs === undefined ? {} : { reconnectedMs }),
      notReconnected: edited.filter(
        (id) => !connecting.has(id) || core.pool.status(id).state !== 'ready',
      ).length,
      needless: [...connecting].filter((id) => !wanted.has(id)).length,
      wronglyChanged:
        event.changed.filter((id) => !wanted.has(id)).length +
        event.added.length +
        event.removed.length,
      missed: edited.filter((id) => !event.changed.includes(id)).length,
    }
  } finally {
    offStatus()
  }
}
