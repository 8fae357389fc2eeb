import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

/** Monotonic microseconds, the clock V8's profile timestamps use. */
const micros = () => Number(process.hrtime.bigint() / 1000n)

/**
 * SCALE_CPU_PROF=<file>: a CPU profile of the scale worker's search loop (in process, 100 µs
 * samples), written as `<file>.cpuprofile`, and on stderr the top functions by self time in
 * each phase of a fan-out search: sending (from its start until `sendMs`), and the rest.
 */
export class FanoutProfile {
  private readonly session = new Session()
  private readonly starts: number[] = []

  constructor(
    private readonly file: string,
    private readonly sendMs: number,
  ) {}

  async start(): Promise<void> {
    this.session.connect()
    await this.session.post('Profiler.enable')
    await this.session.post('Profiler.setSamplingInterval', { interval: 100 })
    await this.session.post('Profiler.start')
  }

  /** A fan-out search starts now. */
  mark(): void {
    this.starts.push(micros())
  }

  async stop(): Promise<string[]> {
    const { profile } = (await this.session.post('Profiler.stop')) as { profile: CpuProfile }
    this.session.disconnect()
    writeFileSync(`${this.file}.cpuprofile`, JSON.stringify(profile))
    writeFileSync(`${this.file}.starts.json`, JSON.stringify(this.starts))
    const byId = new Map(profile.nodes.map((node) => [node.id, node]))
    const phases = { send: new Map<string, number>(), rest: new Map<string, number>() }
    const totals = { send: 0, rest: 0 }
    /** Busy time (µs): the sampler falls behind its 100 µs on a loaded machine, so add up deltas. */
    const busy = { send: 0, rest: 0 }
    let at = profile.startTime
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i]!
      at += delta
      const node = byId.get(id)!
      const name = frameName(node)
      if (IDLE.has(node.callFrame.functionName)) return
      const start = this.lastStartBefore(at)
      const phase = start !== undefined && at - start <= this.sendMs * 1000 ? 'send' : 'rest'
      phases[phase].set(name, (phases[phase].get(name) ?? 0) + 1)
      totals[phase]++
      busy[phase] += delta
    })
    const lines: string[] = []
    for (const phase of ['send', 'rest'] as const) {
      const perSearch = busy[phase] / 1000 / Math.max(1, this.starts.length)
      lines.push(`${phase}: ${totals[phase]} busy samples (${perSearch.toFixed(1)} ms per search)`)
      const top = [...phases[phase]].sort((a, b) => b[1] - a[1]).slice(0, 40)
      for (const [name, n] of top)
        lines.push(`  ${((100 * n) / totals[phase]).toFixed(1).padStart(5)} %  ${name}`)
    }
    return lines
  }

  private lastStartBefore(at: number): number | undefined {
    let found: number | undefined
    for (const start of this.starts) if (start <= at) found = start
    return found
  }
}

const IDLE = new Set(['(idle)', '(program)'])

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame
  const file = url.split('/').slice(-2).join('/')
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`
}
