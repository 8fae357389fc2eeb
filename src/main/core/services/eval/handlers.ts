import type { EvaluationResults } from '#shared/ipc/evaluation'
import type { ChannelHandlers } from '#shared/ipc/contract'
import type { RagServices } from '../rag-services'

/** IPC handlers of retrieval evaluation. */
export function evaluationHandlers(
  services: RagServices,
): Pick<ChannelHandlers, keyof EvaluationResults> {
  // Looked up per call, like the other feature handlers: the map is built before it is used.
  const evaluation = (): RagServices['evaluation'] => services.evaluation
  return {
    'eval:sets': () => evaluation().sets.list(),
    'eval:set:get': ({ id }) => evaluation().sets.get(id),
    'eval:set:save': ({ $schema: _schema, ...set }) => evaluation().saveSet(set),
    'eval:set:delete': ({ id }) => ({ deleted: evaluation().deleteSet(id) }),
    'eval:set:add-demo': () => evaluation().addDemoSet(),
    'eval:judge': (request) => evaluation().judge(request),
    // Resolves at once; the run goes on and reports through events.
    'eval:run': async (request) => {
      const { summary, done } = await evaluation().startRun(request)
      done.catch(() => undefined) // a failed run is stored and announced as such
      return summary
    },
    'eval:cancel': ({ runId }) => ({ cancelled: evaluation().runner.cancel(runId) }),
    'eval:runs': (request) => evaluation().listRuns(request?.setId),
    'eval:run:get': ({ runId }) => evaluation().runs.get(runId),
    'eval:run:delete': ({ runId }) => ({ deleted: evaluation().runs.delete(runId) }),
    'eval:metrics': ({ runId, k }) => evaluation().metrics(runId, k),
    'eval:compare': ({ runA, runB, k }) => evaluation().compare(runA, runB, k),
    'eval:import-trec': (request) =>
      request.kind === 'qrels'
        ? evaluation().importQrels(request)
        : evaluation().importRun(request.setId, request.text),
    'eval:pool': ({ setId, runIds, depth }) => evaluation().pool(setId, runIds, depth),
    'eval:pool:document': (request) => evaluation().poolDocument(request),
    'eval:export-trec': (request) =>
      request.kind === 'qrels'
        ? evaluation().exportQrels(request.setId)
        : evaluation().exportRun(request.runId, request.list, request.profileId),
  }
}
