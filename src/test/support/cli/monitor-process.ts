import type { ChildProcess } from 'node:child_process'
import { SAFETY_NET_MS } from '../process/limits'
import { cliEnv, collectJsonLines, spawnCli } from './run-cli'

/** A running `rag-console --json monitor`, its JSON lines collected (tests and benchmarks). */
export interface MonitorProcess {
  child: ChildProcess
  /** Every JSON line so far. */
  lines: Record<string, unknown>[]
  stderr: () => string
  /** The `/metrics` URL it printed. */
  metricsUrl: string
  /** Waits for a line that matches, failing with everything printed past the deadline. */
  line(
    match: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | null>
}

/** Starts the built CLI's `monitor` with these extra arguments; resolves once metrics are served. */
export async function startMonitor(
  args: string[],
  home: string,
  env: NodeJS.ProcessEnv = {},
): Promise<MonitorProcess> {
  const child = spawnCli(['--json', ...args, 'monitor', '--metrics-port', '0'], cliEnv(home, env))
  const lines: Record<string, unknown>[] = []
  let stderr = ''
  collectJsonLines(child.stdout!, lines)
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => resolve(code)),
  )
  const line: MonitorProcess['line'] = async (match, timeoutMs = SAFETY_NET_MS) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = lines.find(match)
      if (found) return found
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(
          `no such monitor line within ${timeoutMs} ms:\n${lines.map((l) => JSON.stringify(l)).join('\n')}\n${stderr}`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    const code = await exited
    clearTimeout(timer)
    return code
  }
  try {
    const metrics = await line((l) => l.event === 'metrics')
    return { child, lines, stderr: () => stderr, metricsUrl: String(metrics.url), line, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
