import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { eachLine } from './support/process/start-child'
import { acquireLock, lockPath } from './support/process/lock'

describe('a test lock', () => {
  it('lets a second holder in only once the first lets go', async () => {
    const name = `lock-test-${randomUUID()}`
    const order: string[] = []
    const first = await acquireLock(name)
    let waiting!: () => void
    const asked = new Promise<void>((resolve) => (waiting = resolve))
    const second = acquireLock(name, { onWait: waiting }).then((release) => {
      order.push('second holds')
      return release
    })
    await asked
    order.push('first lets go')
    await first()
    await (
      await second
    )()
    expect(order).toEqual(['first lets go', 'second holds'])
  })

  it('is free again at once when its holder dies', async () => {
    const name = `lock-test-${randomUUID()}`
    // Another process holds it the way acquireLock does: by listening on its socket.
    const holder = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(lockPath(name))}, () => console.log('held'))`,
    ])
    const exited = new Promise((resolve) => holder.once('exit', (_code, signal) => resolve(signal)))
    await new Promise<void>((resolve) =>
      eachLine(holder.stdout, (line) => line === 'held' && resolve()),
    )
    let waiting!: () => void
    const asked = new Promise<void>((resolve) => (waiting = resolve))
    const acquired = acquireLock(name, { onWait: waiting })
    await asked
    holder.kill('SIGKILL')
    const release = await acquired
    expect(await exited).toBe('SIGKILL')
    await release()
  })
})
