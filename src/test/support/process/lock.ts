import { rmSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A lock shared by every test process on this machine's network namespace, for what cannot be
 * had twice at once there: the embedded demo registry's fixed ports (47310-47315), which two
 * Playwright workers (or Vitest beside them) would otherwise fight over.
 *
 * Holding it is listening on a Unix socket named after it (in Linux's abstract namespace, which
 * is per network namespace, like the ports; a file in the temp folder elsewhere). A waiter
 * connects and waits for the holder to close the connection, so it wakes at the release, and
 * at once when the holder dies: the kernel closes a dead process's sockets.
 *
 * No test-runner imports here: Vitest and Playwright fixtures use it alike.
 */
export async function acquireLock(
  name: string,
  options: { onWait?: () => void } = {},
): Promise<() => Promise<void>> {
  const path = lockPath(name)
  for (;;) {
    const held = await tryListen(path)
    if (held) return held
    options.onWait?.()
    await untilReleased(path)
  }
}

/** Where the lock `name` listens (a holder is whatever listens there). */
export const lockPath = (name: string): string =>
  process.platform === 'linux'
    ? `\0rag-console-test-${name}`
    : join(tmpdir(), `rag-console-test-${name}.sock`)

function tryListen(path: string): Promise<(() => Promise<void>) | undefined> {
  const waiters = new Set<Socket>()
  const server: Server = createServer((socket) => {
    waiters.add(socket)
    socket.on('close', () => waiters.delete(socket))
    socket.on('error', () => {})
  })
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(undefined)
      else reject(error)
    })
    server.listen(path, () =>
      resolve(async () => {
        const closed = new Promise((done) => server.close(done))
        for (const socket of waiters) socket.destroy()
        await closed
      }),
    )
  })
}

/** Resolves when the holder of `path` lets go (or is gone). */
function untilReleased(path: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(path)
    socket.resume()
    socket.once('close', () => resolve())
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // A socket file left by a holder that died (not on Linux): nobody listens any more.
      if (error.code === 'ECONNREFUSED' && !path.startsWith('\0')) rmSync(path, { force: true })
    })
  })
}
