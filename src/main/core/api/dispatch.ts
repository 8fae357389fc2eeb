import { invokeRequests, isInvokeChannel, type InvokeChannel } from '#shared/ipc/contract'
import type { IpcResponse } from '#shared/ipc/wire'
import { ConsoleError, toErrorInfo } from '#shared/errors'
import { RESPONSE_REDACTOR, type Handlers } from './handlers'

/**
 * Runs one request from a renderer: the channel must be known and the request must match its
 * schema. Never throws; every failure becomes `{ ok: false, error: {code, message, details} }`.
 * Responses pass through the handlers' redactor: values get every known secret replaced; errors
 * also get credential-shaped text (`Authorization: …`, `Bearer …`) replaced. Values skip those
 * patterns because some must round-trip exactly (a config file's text, a signed URL).
 */
export async function dispatch(
  handlers: Handlers,
  channel: unknown,
  request: unknown,
): Promise<IpcResponse<unknown>> {
  const response = await run(handlers, channel, request)
  const redactor = handlers[RESPONSE_REDACTOR]
  if (!redactor) return response
  try {
    if (!response.ok) return { ok: false, error: redactor.redact(response.error) }
    // The config editor gets the file as written, plaintext keys included (its author's own
    // text, saved back as is), but never a stored secret.
    const value =
      channel === 'config:read'
        ? redactor.redactStoredValues(response.value)
        : redactor.redactValues(response.value)
    return { ok: true, value }
  } catch (error) {
    // A value that cannot be read (a throwing getter or toJSON) is a failure, not a throw.
    return { ok: false, error: redactor.redact(toErrorInfo(error)) }
  }
}

async function run(
  handlers: Handlers,
  channel: unknown,
  request: unknown,
): Promise<IpcResponse<unknown>> {
  try {
    if (!isInvokeChannel(channel)) {
      throw new ConsoleError({
        code: 'invalid_argument',
        message: `unknown channel ${JSON.stringify(String(channel)).slice(0, 80)}`,
      })
    }
    const parsed = invokeRequests[channel].safeParse(request)
    if (!parsed.success) {
      throw new ConsoleError({
        code: 'invalid_argument',
        message: `${channel}: invalid request: ${parsed.error.issues
          .map((issue) => `${issue.path.join('.') || '(request)'}: ${issue.message}`)
          .join('; ')}`,
      })
    }
    const handler = handlers[channel] as (request: unknown) => unknown
    return { ok: true, value: await handler(parsed.data) }
  } catch (error) {
    return { ok: false, error: toErrorInfo(error) }
  }
}

export type { InvokeChannel }
