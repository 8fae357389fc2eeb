import { ConsoleError } from '#shared/errors'
import type { ServerStatus } from '#shared/model/server'
import type { SecretRef } from '../secrets/types'

/** Which status field lists the missing references of each kind, and where to set them. */
const MISSING = {
  keychain: { field: 'missingSecrets', how: 'set keychain secrets in Config → Secrets' },
  session: {
    field: 'missingSessionTokens',
    how: 'give session tokens in Config → Secrets (kept in memory for this session only)',
  },
  env: {
    field: 'missingEnv',
    how: "set environment variables in the console's environment, then restart the console",
  },
} as const

type MissingField = (typeof MISSING)[keyof typeof MISSING]['field']

/** Secret references that could not be resolved: only a person can set them. */
export function missingSecretsError(server: string, refs: SecretRef[]): ConsoleError {
  const details: Partial<Record<MissingField, string[]>> = {}
  const how = new Set<string>()
  for (const ref of refs) {
    const names = (details[MISSING[ref.kind].field] ??= [])
    if (!names.includes(ref.name)) names.push(ref.name)
    how.add(MISSING[ref.kind].how)
  }
  const what = [
    ...new Set(
      refs.map((ref) =>
        ref.kind === 'env'
          ? `environment variable ${ref.name}`
          : ref.kind === 'session'
            ? `session token ${ref.name}`
            : `secret ${ref.name}`,
      ),
    ),
  ]
  return new ConsoleError({
    code: 'action_required',
    origin: 'local',
    server,
    message: `server ${server} cannot connect: ${what.join(', ')} ${what.length === 1 ? 'is' : 'are'} not set: ${[...how].join('; ')}`,
    details,
  })
}

/** The status fields naming what is missing, from a {@link missingSecretsError}'s details. */
export function missingFields(
  details: Record<string, unknown> | undefined,
): Partial<Record<MissingField, string[]>> {
  const fields: Partial<Record<MissingField, string[]>> = {}
  for (const { field } of Object.values(MISSING)) {
    const names = details?.[field]
    if (Array.isArray(names)) fields[field] = names as string[]
  }
  return fields
}

export function notConnectedError(
  server: string,
  message: string,
  details?: Record<string, unknown>,
): ConsoleError {
  return new ConsoleError({
    code: 'not_connected',
    origin: 'local',
    server,
    message,
    ...(details ? { details } : {}),
  })
}

/** For calls on a connection the pool has let go of. */
export function removedError(server: string): ConsoleError {
  return notConnectedError(
    server,
    `server ${server} was removed from the pool (its entry changed or was deleted); get a new session`,
  )
}

/** Why a call cannot run now, for a server that is down or needs a person. */
export function unavailableError(
  server: string,
  status: ServerStatus,
  now: number,
): ConsoleError | undefined {
  if (status.state === 'disabled') {
    return notConnectedError(
      server,
      `server ${server} is disabled in rag-mcp.json; enable it to use it`,
    )
  }
  if (status.state === 'action_required') {
    return new ConsoleError(
      status.lastError ?? {
        code: 'action_required',
        origin: 'local',
        server,
        message: status.reason,
      },
    )
  }
  if (status.state === 'down') {
    // The code names the cause (`unreachable`, `timeout`, …), as the failed connect did; that
    // the console is retrying is said in the message and `details.state`.
    const { lastError } = status
    const retry = status.nextRetryAt
      ? `next retry in ${Math.max(0, Math.round((status.nextRetryAt - now) / 1000))} s`
      : 'retrying'
    return new ConsoleError({
      ...lastError,
      server,
      message: `server ${server} is down (${lastError.message}); ${retry}, or reconnect it now`,
      details: {
        ...lastError.details,
        state: 'down',
        ...(status.nextRetryAt ? { nextRetryAt: status.nextRetryAt } : {}),
      },
    })
  }
  return undefined
}
