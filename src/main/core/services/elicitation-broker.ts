import { randomUUID } from 'node:crypto'
import type { PendingElicitation } from '#shared/ipc/elicitation'
import type { ElicitationAnswer } from '#shared/model/elicitation'
import type { EventBus } from '../events'
import type { ElicitationHandler } from '../pool/elicitation'

/** Forms kept waiting at once; past it a server's form is cancelled at once (a flood). */
export const MAX_PENDING_FORMS = 20

/**
 * Takes the forms servers send to the app's windows (`elicit:request`) and hands back the first
 * answer any window gives (`elicit:answer`). A form the server stops waiting for (its call
 * ended or was cancelled) is withdrawn from every window.
 */
export class ElicitationBroker {
  private readonly pending = new Map<
    string,
    { form: PendingElicitation; resolve: (answer: ElicitationAnswer) => void }
  >()

  constructor(
    private readonly events: EventBus,
    private readonly now: () => number = Date.now,
  ) {}

  readonly handler: ElicitationHandler = (request, signal) =>
    new Promise<ElicitationAnswer>((resolve) => {
      if (signal.aborted || this.pending.size >= MAX_PENDING_FORMS) {
        return resolve({ action: 'cancel' })
      }
      const form: PendingElicitation = { ...request, id: randomUUID(), at: this.now() }
      const withdraw = (): void => {
        if (!this.pending.delete(form.id)) return
        this.events.emit('elicit:closed', { id: form.id, reason: 'withdrawn' })
        resolve({ action: 'cancel' })
      }
      this.pending.set(form.id, {
        form,
        resolve: (answer) => {
          signal.removeEventListener('abort', withdraw)
          resolve(answer)
        },
      })
      signal.addEventListener('abort', withdraw, { once: true })
      this.events.emit('elicit:request', form)
    })

  list(): PendingElicitation[] {
    return [...this.pending.values()].map(({ form }) => structuredClone(form))
  }

  /** The first answer to a form counts; false when it is gone (answered, withdrawn). */
  answer(id: string, answer: ElicitationAnswer): boolean {
    const entry = this.pending.get(id)
    if (!entry) return false
    this.pending.delete(id)
    this.events.emit('elicit:closed', { id, reason: 'answered' })
    entry.resolve(answer)
    return true
  }

  /** Cancels every waiting form (the console is closing). */
  dispose(): void {
    for (const id of [...this.pending.keys()]) this.answer(id, { action: 'cancel' })
  }
}
