import { ConsoleError } from '../../../shared/errors'
import type { ServerStatus } from '../../../shared/model/server'
import type { SecretRef } from '../secrets/types'

/** Secret references that could not be resolved: only a person can set them. */
export function missingSecretsError(server: string, refs: SecretRef[]): ConsoleError {
  const names = [...new Set(refs.map((ref) => ref.name))]
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
  const one = what.length === 1
  return new ConsoleError({
    code: 'action_required',
    origin: 'local',
    server,
    message: `server ${server} cannot connect: ${what.join(', ')} ${one ? 'is' : 'are'} not set. Set ${one ? 'it' : 'them'} (Config → Secrets for keychain secrets), then reconnect`,
    details: { missingSecrets: names },
  })
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
    return notConnectedError(server, `server ${server} is disabled in rag-mcp.json`)
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
    const retry = status.nextRetryAt
      ? `next retry in ${Math.max(0, Math.round((status.nextRetryAt - now) / 1000))} s`
      : 'retrying'
    return notConnectedError(
      server,
      `server ${server} is down (${status.lastError.message}); ${retry}, or reconnect it now`,
      { lastError: status.lastError },
    )
  }
  return undefined
}
