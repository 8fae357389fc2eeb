import type { ConsoleError } from '#shared/errors'
import type { CallContext } from './call-context'
import type { Outcome } from './exchange'
import type { OpenedClient } from './open-client'

type ProbeMethod = 'ping' | 'tools/list'

/** JSON-RPC "method not found". */
const METHOD_NOT_FOUND = -32601

/**
 * Whether the server replied that it does not implement the probe's method: not a failure of
 * the server, so the probe is not measured in its health.
 */
export function notImplemented(context: CallContext): boolean {
  return context.serverError?.code === METHOD_NOT_FOUND
}

/**
 * Health probe of one server: a raw `ping` where any JSON-RPC reply (even an error, or one
 * with extra keys that the SDK's ping schema would refuse) proves the server is there, and
 * `tools/list` instead for servers that do not implement `ping` (-32601) or whose endpoint
 * refuses it at the HTTP level.
 */
export class Prober {
  private method: ProbeMethod = 'ping'

  constructor(
    private readonly send: (on: OpenedClient, method: ProbeMethod) => Promise<Outcome>,
    private readonly note: (text: string) => void,
  ) {}

  /** Back to `ping` (after a reconnect the server may differ). */
  reset(): void {
    this.method = 'ping'
  }

  /** The probe's outcome: no `error` means alive. */
  async check(on: OpenedClient): Promise<Outcome> {
    let outcome = await this.attempt(on, this.method)
    if (this.method !== 'ping') return outcome
    const why = notImplemented(outcome.context)
      ? 'does not implement "ping" (JSON-RPC -32601)'
      : outcome.error && refusedAtHttpLevel(outcome.error)
        ? 'does not route "ping"'
        : undefined
    if (why) {
      const fallback = await this.attempt(on, 'tools/list')
      if (!fallback.error) {
        this.method = 'tools/list'
        this.note(`the server ${why}; health probes use tools/list`)
      }
      outcome = fallback
    }
    return outcome
  }

  private async attempt(on: OpenedClient, method: ProbeMethod): Promise<Outcome> {
    const outcome = await this.send(on, method)
    const { error, context } = outcome
    if (!error) return outcome
    const replied =
      context.serverError ||
      (context.protocolError && context.httpStatus === undefined) ||
      context.httpStatus === 429
    return replied ? { context } : outcome
  }
}

function refusedAtHttpLevel(error: ConsoleError): boolean {
  const status = error.details?.httpStatus
  if (error.code === 'protocol' || error.code === 'config') return true
  return (
    typeof status === 'number' && status >= 400 && status < 500 && status !== 401 && status !== 403
  )
}
