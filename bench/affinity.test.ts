import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { cpus } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import { affinityOf, benchLayout, pin } from './affinity'

const linuxWithTwoCores = process.platform === 'linux' && cpus().length >= 2

describe.runIf(linuxWithTwoCores)('CPU affinity', () => {
  const children: ReturnType<typeof spawn>[] = []
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL')
  })

  async function sleeper(): Promise<number> {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      stdio: 'ignore',
    })
    children.push(child)
    await once(child, 'spawn')
    return child.pid!
  }

  it('pins a running process to the CPUs it is given', async () => {
    const pid = await sleeper()
    expect(pin(pid, '1')).toBe(true)
    expect(affinityOf(pid)).toBe('1')
    expect(pin(pid, '0')).toBe(true)
    expect(affinityOf(pid)).toBe('0')
  })

  it('reports failure for a process that does not exist', () => {
    expect(pin(2 ** 22 + 7, '0')).toBe(false)
    expect(affinityOf(2 ** 22 + 7)).toBeUndefined()
  })

  it('puts the servers on the last CPU and the benchmark on the others', () => {
    const layout = benchLayout()!
    expect(layout.servers).toBe(String(cpus().length - 1))
    expect(layout.bench.startsWith('0')).toBe(true)
    expect(layout.before).toBe(affinityOf(process.pid))
  })
})
