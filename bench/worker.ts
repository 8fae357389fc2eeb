import { spawn } from 'node:child_process'

const WORKER_TIMEOUT_MS = 15 * 60_000

/**
 * Runs a benchmark's worker (this bench program with `flag` and the plan as JSON) in a child
 * with `--expose-gc`, so nothing earlier benchmarks left behind is counted, and parses its
 * one-line JSON answer.
 */
export function runWorker<T>(flag: string, plan: unknown): Promise<T> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', process.argv[1]!, flag, JSON.stringify(plan)],
    // Its own process group: a timeout stops the demo servers it started along with it.
    { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  )
  let output = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk: string) => (output += chunk))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), WORKER_TIMEOUT_MS)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      const line = output.trim().split('\n').pop() ?? ''
      if (code !== 0 || !line.startsWith('{')) {
        reject(new Error(`${flag} worker ended with ${signal ?? code}: ${output.slice(-2000)}`))
        return
      }
      resolve(JSON.parse(line) as T)
    })
  })
}

/** The plan a worker was started with (the JSON after its flag). */
export function workerPlan<T>(flag: string): T {
  return JSON.parse(process.argv[process.argv.indexOf(flag) + 1]!) as T
}
