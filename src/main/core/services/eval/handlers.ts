import { ConsoleError } from '../../../../shared/errors'
import type { EvaluationResults } from '../../../../shared/ipc/evaluation'
import type { Handlers } from '../../api/handlers'

/** IPC handlers of retrieval evaluation (the service lands next; until then, `unsupported`). */
export function evaluationHandlers(): Pick<Handlers, keyof EvaluationResults> {
  const pending = (): never => {
    throw new ConsoleError({ code: 'unsupported', message: 'evaluation is not available yet' })
  }
  return {
    'eval:sets': pending,
    'eval:set:get': pending,
    'eval:set:save': pending,
    'eval:set:delete': pending,
    'eval:set:add-demo': pending,
    'eval:judge': pending,
    'eval:run': pending,
    'eval:cancel': pending,
    'eval:runs': pending,
    'eval:run:get': pending,
    'eval:run:delete': pending,
    'eval:metrics': pending,
    'eval:compare': pending,
    'eval:import-trec': pending,
    'eval:export-trec': pending,
  }
}
