import { z } from 'zod'
import type { ElicitationAnswer, ElicitationRequest } from '../model/elicitation'

/** A form a server is waiting for a person to answer in the app. */
export interface PendingElicitation extends ElicitationRequest {
  /** Names this form in `elicit:answer`. */
  id: string
  /** When the server asked (epoch ms). */
  at: number
}

const value = z.union([
  z.string().max(100_000),
  z.number(),
  z.boolean(),
  z.array(z.string().max(10_000)).max(1000),
])

/** Forms servers send (`elicitation/create`) are answered in the app's windows. */
export const elicitationRequests = {
  /** Forms still waiting (a window that opens late shows them too). */
  'elicit:pending': z.undefined(),
  /** Answers one; the first answer from any window counts. */
  'elicit:answer': z.object({
    id: z.string().min(1).max(100),
    answer: z.discriminatedUnion('action', [
      z.object({ action: z.literal('accept'), content: z.record(z.string(), value) }),
      z.object({ action: z.literal('decline') }),
      z.object({ action: z.literal('cancel') }),
    ]),
  }),
}

export interface ElicitationResults {
  'elicit:pending': PendingElicitation[]
  /** False when the form is gone: answered elsewhere, or the server stopped waiting. */
  'elicit:answer': { answered: boolean }
}

export interface ElicitationEvents {
  /** A server asks a person to fill in a form. */
  'elicit:request': PendingElicitation
  /** The form no longer waits: answered (here or in another window), or withdrawn. */
  'elicit:closed': { id: string; reason: 'answered' | 'withdrawn' }
}

export type { ElicitationAnswer }
