import type { ConsoleError } from '../../../shared/errors'
import type { Outcome } from './exchange'
import type { OpenedClient } from './open-client'

type ProbeMethod = 'ping' | 'tools/list'

/**
 * Health probe of one server: a raw `ping` where any JSON-RPC reply (even an error, or one
 * with extra keys that the SDK's ping schema would refuse) proves the server is there, and
 * `tools/list` instead for servers whose endpoint refuses `ping` at the HTTP level.
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
    if (outcome.error && this.method === 'ping' && refusedAtHttpLevel(outcome.error)) {
      const fallback = await this.attempt(on, 'tools/list')
      if (!fallback.error) {
        this.method = 'tools/list'
        this.note('the server does not route "ping"; health probes use tools/list')
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
