import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { checkAnswer, parseForm, type ElicitContent, type ElicitField } from './elicitation-form'

/** A form a server asks a person to fill in (`elicitation/create`, form mode), checked. */
export interface ElicitationRequest {
  serverId: string
  message: string
  fields: ElicitField[]
}

/** What the person did with the form. */
export type ElicitationAnswer =
  { action: 'accept'; content: ElicitContent } | { action: 'decline' } | { action: 'cancel' }

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
): void {
  const decline = (why: string): ElicitResult => {
    note(`declined the elicitation of ${serverId}: ${why}`)
    return { action: 'decline' }
  }
  Protocol.prototype.setRequestHandler.call(
    client,
    ANY_ELICITATION,
    async ({ params = {} }, extra): Promise<ElicitResult> => {
      if ((params.mode ?? 'form') !== 'form') {
        return decline(`mode ${JSON.stringify(params.mode)} is not offered (form mode only)`)
      }
      const form = parseForm(params.requestedSchema)
      if (!form.ok) return decline(form.error)
      const message = typeof params.message === 'string' ? params.message : ''
      let answer: ElicitationAnswer
      try {
        answer = await handler({ serverId, message, fields: form.value }, extra.signal)
      } catch (error) {
        return decline(error instanceof Error ? error.message : String(error))
      }
      if (answer.action !== 'accept') return { action: answer.action }
      const problem = checkAnswer(form.value, answer.content)
      return problem ? decline(`the answer does not fit the form: ${problem}`) : answer
    },
  )
}
