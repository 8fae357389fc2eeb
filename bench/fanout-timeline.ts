import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { readFileSync } from 'node:fs'
import type { Core } from '#core/core'
import { now } from './harness'

/** When one server's part of a search passed each stage, in ms from the search's start. */
export interface ServerMarks {
  server: string
  latencyMs: number
  /** The transport handed its POST to undici (HTTP; undici). */
  sent?: number
  /** Its POST's headers were written to the socket (HTTP; undici). */
  wireOut?: number
  /** The reply's headers, then its whole body, read from the socket (streamable HTTP). */
  replyHeaders?: number
  replyBody?: number
  /**
   * The reply, parsed as JSON-RPC, reached the client (protocol log, incoming: the time its
   * entry gives, whole milliseconds; the entry itself is worked out after the search).
   */
  received?: number
  /** The adapter's hits were emitted (`search:progress`). */
  settled?: number
}

/** One search's timeline: every server's marks and when the search resolved. */
export interface SearchTimeline {
  servers: ServerMarks[]
  resolved: number
}

interface UndiciRequest {
  origin?: string | URL
}

const CHANNELS = {
  'undici:request:create': 'sent',
  'undici:client:sendHeaders': 'wireOut',
  'undici:request:headers': 'replyHeaders',
  'undici:request:trailers': 'replyBody',
} as const

/**
 * Records, per server, when a search's call left and its reply came back at each layer (socket,
 * JSON-RPC, adapter), so the time over the slowest server can be placed: sending, the servers'
 * replies arriving late, the console reading them, or the final merge.
 */
export class FanoutTimeline {
  private marks = new Map<string, ServerMarks>()
  private started = 0
  private startedEpoch = 0
  private recording = false
  private readonly release: (() => void)[] = []

  /**
   * @param origins server id of each HTTP origin (every demo endpoint has its own port)
   * @param latency each server's backend latency
   */
  constructor(
    private readonly core: Core,
    private readonly origins: Map<string, string>,
    private readonly latency: Map<string, number>,
  ) {
    for (const [channel, stage] of Object.entries(CHANNELS)) {
      const listener = (message: unknown): void => {
        const { request } = message as { request: UndiciRequest }
        const server = this.origins.get(String(request.origin))
        if (server) this.mark(server, stage)
      }
      subscribe(channel, listener)
      this.release.push(() => unsubscribe(channel, listener))
    }
    this.release.push(
      core.pool.onProtocol((server, entry) => {
        if (entry.direction !== 'in' || entry.kind !== 'response') return
        this.mark(server, 'received', entry.at - this.startedEpoch)
      }),
      core.events.on('search:progress', ({ result }) => this.mark(result.server, 'settled')),
    )
  }

  begin(): void {
    this.marks = new Map()
    this.started = now()
    this.startedEpoch = Date.now()
    this.recording = true
  }

  end(): SearchTimeline {
    // The search's protocol log entries are worked out after it answered: now, for their times.
    this.core.pool.settleProtocolLogs()
    this.recording = false
    return { servers: [...this.marks.values()], resolved: now() - this.started }
  }

  dispose(): void {
    for (const release of this.release) release()
  }

  /**
   * A call leaves once: its first send counts. Of the replies the last counts (a POST's 202
   * before an SSE reply, say).
   */
  private mark(server: string, stage: Stage, at = now() - this.started): void {
    if (!this.recording) return
    let marks = this.marks.get(server)
    if (!marks) {
      marks = { server, latencyMs: this.latency.get(server) ?? 0 }
      this.marks.set(server, marks)
    }
    if ((stage === 'sent' || stage === 'wireOut') && marks[stage] !== undefined) return
    marks[stage] = at
  }
}

type Stage = Exclude<keyof ServerMarks, 'server' | 'latencyMs'>

/** CPU time (user + system) a process has used so far, in ms (Linux `/proc`). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold spaces) start at its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticksPerMs = 100 / 1000
  return (Number(fields[11]) + Number(fields[12])) / ticksPerMs
}

const at = (values: (number | undefined)[]): number =>
  Math.max(...values.filter((value): value is number => value !== undefined))

const first = (values: (number | undefined)[]): number =>
  Math.min(...values.filter((value): value is number => value !== undefined))

/** The middle value (the upper one of an even count). */
const middle = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/**
 * Lines describing the median search: when the last call left, when the last reply of each
 * latency class reached the socket and the client, when the last part settled and the search
 * resolved; and the median per-server lags between the stages.
 */
export function describeTimelines(timelines: SearchTimeline[]): string[] {
  const per = (pick: (timeline: SearchTimeline) => number) => middle(timelines.map(pick)).toFixed(1)
  const lag = (pick: (marks: ServerMarks) => number | undefined) => {
    const all = timelines.flatMap((timeline) =>
      timeline.servers.flatMap((marks) => {
        const value = pick(marks)
        return value === undefined || Number.isNaN(value) ? [] : [value]
      }),
    )
    return middle(all).toFixed(2)
  }
  const classes = [...new Set(timelines[0]?.servers.map((marks) => marks.latencyMs))].sort(
    (a, b) => a - b,
  )
  const lines = [
    `servers ${timelines[0]?.servers.length ?? 0}, searches ${timelines.length} (medians, ms from the search's start)`,
    `  first POST handed to undici            ${per((t) => first(t.servers.map((m) => m.sent)))}`,
    `  last POST handed to undici             ${per((t) => at(t.servers.map((m) => m.sent)))}`,
    `  last POST written to its socket       ${per((t) => at(t.servers.map((m) => m.wireOut)))}`,
  ]
  for (const latency of classes) {
    const of = (t: SearchTimeline) => t.servers.filter((m) => m.latencyMs === latency)
    lines.push(
      `  ${latency} ms class: last POST written ${per((t) => at(of(t).map((m) => m.wireOut)))}, ` +
        `last reply at the socket ${per((t) => at(of(t).map((m) => m.replyBody)))}, ` +
        `last parsed reply ${per((t) => at(of(t).map((m) => m.received)))}, ` +
        `last settled ${per((t) => at(of(t).map((m) => m.settled)))}`,
    )
  }
  lines.push(
    `  search resolved                       ${per((t) => t.resolved)}`,
    `  resolved after the last part settled  ${per((t) => t.resolved - at(t.servers.map((m) => m.settled)))}`,
    'per server (median lags, ms):',
    `  POST written after handed over        ${lag((m) => m.wireOut! - m.sent!)}`,
    `  reply at the socket after its latency ${lag((m) => m.replyHeaders! - m.wireOut! - m.latencyMs)}`,
    `  body read after its headers           ${lag((m) => m.replyBody! - m.replyHeaders!)}`,
    `  parsed reply after its body           ${lag((m) => m.received! - m.replyBody!)}`,
    `  settled after its parsed reply        ${lag((m) => m.settled! - m.received!)}`,
    `  settled after sent + latency (all)    ${lag((m) => m.settled! - m.sent! - m.latencyMs)}`,
  )
  return lines
}
