import { spawnSync } from 'node:child_process'
import { cpus } from 'node:os'

/**
 * CPU affinity through util-linux `taskset` (Linux only; elsewhere nothing is pinned). Lets a
 * benchmark run the two processes it compares on the same core, so neither side's ratio depends
 * on where the scheduler happened to put it.
 */

/** The CPU list a process may run on (e.g. `0,1` or `0-3`), or undefined when unknown. */
export function affinityOf(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined
  const run = spawnSync('taskset', ['-p', '-c', String(pid)], { encoding: 'utf8', timeout: 2000 })
  if (run.status !== 0) return undefined
  return /:\s*(\S+)\s*$/.exec(run.stdout)?.[1]
}

/** Pins every thread of `pid` to `cpuList`; false when it could not. */
export function pin(pid: number, cpuList: string): boolean {
  if (process.platform !== 'linux') return false
  const args = ['-a', '-p', '-c', cpuList, String(pid)]
  const run = spawnSync('taskset', args, { stdio: 'ignore', timeout: 2000 })
  // `taskset -a` exits 0 for a process that is gone (it has no threads to pin): read it back.
  return run.status === 0 && affinityOf(pid) !== undefined
}

/**
 * Where a benchmark's servers and the benchmark itself go: the servers share the last CPU, the
 * benchmark process takes the others. Undefined on a single core or without `taskset`.
 */
export function benchLayout(): { servers: string; bench: string; before: string } | undefined {
  const count = cpus().length
  const before = affinityOf(process.pid)
  if (count < 2 || !before) return undefined
  return {
    servers: String(count - 1),
    bench: count === 2 ? '0' : `0-${count - 2}`,
    before,
  }
}
