import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

/** A private Secret Service: its own D-Bus session with an unlocked gnome-keyring. */
export interface PrivateKeyring {
  /** The session bus a console must use to reach it (`DBUS_SESSION_BUS_ADDRESS`). */
  address: string
  stop(): Promise<void>
}

/**
 * Starts `scripts/with-keyring.sh` around a process that prints its session bus address and
 * then waits; `stop` ends it, and with it the keyring daemon and the bus. Each Playwright
 * worker runs one, so specs in parallel never see each other's keychain entries.
 */
export async function startPrivateKeyring(): Promise<PrivateKeyring> {
  const env: NodeJS.ProcessEnv = { ...process.env }
  // A new session of its own, not the one this process may already run inside.
  delete env.RAG_KEYRING_INNER
  delete env.RAG_KEYRING_READY
  const print =
    "console.log(`bus ${process.env.RAG_KEYRING_READY === '1' ? process.env.DBUS_SESSION_BUS_ADDRESS : 'none'}`); process.stdin.resume()"
  const child = spawn(
    'bash',
    [resolve(import.meta.dirname, '../scripts/with-keyring.sh'), process.execPath, '-e', print],
    {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const address = await new Promise<string>((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /^bus (\S+)$/m.exec(output)
      if (!match) return
      if (match[1] === 'none') reject(new Error(`the private keyring did not start:\n${output}`))
      else resolve(match[1]!)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) =>
      reject(new Error(`with-keyring.sh exited with ${code}:\n${output}`)),
    )
  })
  return {
    address,
    stop: async () => {
      // The waiting process ends with its stdin; with-keyring.sh then stops the daemon.
      child.stdin.end()
      await exited
    },
  }
}
