import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { Profile } from '#shared/model/user'
import {
  defaultDemoEntry,
  loadEmbeddedRegistry,
  type EmbeddedRegistry,
} from '#core/config/embedded'
import type { Logger } from '#core/log'
import { runsAsNode } from '#core/pool/child-process'
import type { KeychainStore } from '#core/secrets/keychain-store'
import type { Redactor } from '#core/secrets/types'
import { withTimeout } from '#core/util/with-timeout'

const run = promisify(execFile)

/** `{ serverId: { secretName: value } }`, as `demo.js keys` prints it. */
export type DemoSecrets = Record<string, Record<string, string>>

/** Runs `demo.js <command>` and parses the JSON it prints (the console never imports the demo). */
async function askDemo(command: 'keys' | 'users', demoEntry: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, [demoEntry, command], {
    timeout: 10_000,
    env: { ...process.env, ...runsAsNode(process.execPath) },
  })
  return JSON.parse(stdout) as unknown
}

/** The demo servers' public keys, asked from the built demo entry. */
export async function readDemoSecrets(demoEntry = defaultDemoEntry()): Promise<DemoSecrets> {
  return (await askDemo('keys', demoEntry)) as DemoSecrets
}

/** A user of the demo servers, as `demo.js users` prints it. */
export interface DemoUser {
  id: string
  name: string
  groups: string[]
  sessionTags: string[]
}

/** The demo servers' users (alice, bob, carol, dan), asked from the built demo entry. */
export async function readDemoUsers(demoEntry = defaultDemoEntry()): Promise<DemoUser[]> {
  return (await askDemo('users', demoEntry)) as DemoUser[]
}

/**
 * "View as" profiles for the demo users, so a first launch shows real differences between
 * users; the one in group `admin` (who sees every demo server) is the one to start as.
 */
export function demoProfiles(users: DemoUser[]): { profiles: Profile[]; activeId: string } {
  const profiles = users.map((user) => ({
    id: user.id.split('@')[0]!,
    name: user.name,
    userId: user.id,
    sessionTags: user.sessionTags,
    groups: user.groups,
  }))
  const admin = users.findIndex((user) => user.groups.includes('admin'))
  return { profiles, activeId: profiles[Math.max(admin, 0)]?.id ?? '' }
}

/** The environment variable a demo secret travels in when there is no keychain. */
export const demoEnvName = (server: string, name: string): string =>
  `RAG_DEMO_${server}_${name}`.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()

export interface DemoKeyPlan {
  /** Where the keys are: the keychain, or environment variables for this session only. */
  via: 'keychain' | 'env'
  /** Secrets written to the keychain now (first run). */
  stored: string[]
  /** Set when the keychain could not be used: why, for the notice. */
  reason?: string
}

/**
 * Makes the embedded demo registry work on first launch: its servers' keys go into the OS
 * keychain when missing; without a usable keychain they are put in the core's environment
 * instead, and the registry's `${keychain:NAME}` references of those servers are read as
 * `${env:RAG_DEMO_<SERVER>_<NAME>}` for this session.
 */
export async function provideDemoKeys(deps: {
  keychain: KeychainStore
  env: NodeJS.ProcessEnv
  redactor: Redactor
  log: Logger
  secrets?: DemoSecrets
  /** How long the keychain may take before the session falls back to the environment. */
  timeoutMs?: number
}): Promise<DemoKeyPlan> {
  const secrets = deps.secrets ?? (await readDemoSecrets())
  const stored: string[] = []
  try {
    for (const [server, values] of Object.entries(secrets)) {
      for (const [name, value] of Object.entries(values)) {
        const present = await withTimeout(deps.keychain.has(server, name), deps.timeoutMs ?? 5_000)
        if (present) continue
        await withTimeout(deps.keychain.set(server, name, value), deps.timeoutMs ?? 5_000)
        stored.push(`${server}/${name}`)
      }
    }
    if (stored.length) deps.log.info('demo keys stored in the keychain', { stored })
    return { via: 'keychain', stored }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    for (const [server, values] of Object.entries(secrets)) {
      for (const [name, value] of Object.entries(values)) {
        deps.redactor.add(value)
        deps.env[demoEnvName(server, name)] = value
      }
    }
    deps.log.warn('no usable keychain: demo keys passed through the environment', { reason })
    return { via: 'env', stored, reason }
  }
}

/** The embedded registry with the demo servers' keychain references read from the environment. */
export function embeddedWithEnvKeys(secrets: DemoSecrets): () => EmbeddedRegistry {
  return () => {
    const embedded = loadEmbeddedRegistry()
    let parsed: Record<string, unknown>
    try {
      parsed = JSON.parse(embedded.text) as Record<string, unknown>
    } catch {
      return embedded
    }
    for (const server of Object.keys(secrets)) {
      const entry = parsed[server]
      if (entry && typeof entry === 'object') {
        parsed[server] = JSON.parse(
          JSON.stringify(entry).replace(/\$\{keychain:([^}]+)\}/g, (_m, name: string) =>
            secrets[server]?.[name] !== undefined ? `\${env:${demoEnvName(server, name)}}` : _m,
          ),
        ) as unknown
      }
    }
    return { ...embedded, text: `${JSON.stringify(parsed, null, 2)}\n` }
  }
}
