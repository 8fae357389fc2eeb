import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js'
import {
  CancelledNotificationSchema,
  type ElicitResult,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import {
  checkAnswer,
  parseForm,
  type ElicitationAnswer,
  type ElicitationRequest,
} from '#shared/model/elicitation'

export type { ElicitationAnswer, ElicitationRequest }

/**
 * Answers the forms servers send; `signal` aborts when the server gives up on the request.
 * Throwing declines (the message goes to the protocol log).
 */
export type ElicitationHandler = (
  request: ElicitationRequest,
  signal: AbortSignal,
) => Promise<ElicitationAnswer>

/** The capability a Client declares when someone can answer: form mode only. */
export const ELICITATION_CAPABILITY = { elicitation: { form: {} } }

/** Any `elicitation/create`: the params are read here, not by the SDK (see below). */
const ANY_ELICITATION = z.object({
  method: z.literal('elicitation/create'),
  params: z.record(z.string(), z.unknown()).optional(),
})

/**
 * Routes a Client's `elicitation/create` requests to `handler`. Registered on the base class:
 * the SDK Client's own wrapper answers a schema it cannot parse with a JSON-RPC error, where
 * the console declines and says why in the protocol log (`note`), checking forms and answers
 * itself.
 */
export function answerElicitations(
  client: Client,
  serverId: string,
  handler: ElicitationHandler,
  note: (text: string) => void,
  /** Holds the deadlines of the calls in flight while a form waits (see `CallContext.hold`). */
  hold?: () => () => void,
): void {
  const decline = (why: string): ElicitResult => {
    note(`declined the elicitation of ${serverId}: ${why}`)
    return { action: 'decline' }
  }
  // The SDK ignores a cancellation of request id 0 (it tests the id for truth), and 0 is the
  // first id a server uses: that form would wait for an answer no one reads. Forms in flight
  // are cancelled here instead; the client has no other long-running request handler.
  const inFlight = new Map<RequestId, AbortController>()
  Protocol.prototype.setNotificationHandler.call(
    client,
    CancelledNotificationSchema,
    ({ params }) => void inFlight.get(params.requestId ?? '')?.abort(params.reason),
  )
  Protocol.prototype.setRequestHandler.call(
    client,
    ANY_ELICITATION,
    async ({ params = {} }, extra): Promise<ElicitResult> => {
      const cancelled = new AbortController()
      inFlight.set(extra.requestId, cancelled)
      const release = hold?.()
      try {
        return await answer(params, AbortSignal.any([extra.signal, cancelled.signal]))
      } finally {
        release?.()
        inFlight.delete(extra.requestId)
      }
    },
  )

  async function answer(
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    if ((params.mode ?? 'form') !== 'form') {
      return decline(`mode ${JSON.stringify(params.mode)} is not offered (form mode only)`)
    }
    const form = parseForm(params.requestedSchema)
    if (!form.ok) return decline(form.error)
    const message = typeof params.message === 'string' ? params.message : ''
    let answered: ElicitationAnswer
    try {
      answered = await handler({ serverId, message, fields: form.value }, signal)
    } catch (error) {
      return decline(error instanceof Error ? error.message : String(error))
    }
    if (answered.action !== 'accept') return { action: answered.action }
    const problem = checkAnswer(form.value, answered.content)
    return problem ? decline(`the answer does not fit the form: ${problem}`) : answered
  }
}
