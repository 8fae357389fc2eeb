import type { ServerAnswer, SynthesisRequest } from '#shared/model/operations'
import type { Answer } from '#shared/model/rag'
import { extractiveAnswer } from './extractive'
import { flagAnswer, flagSuspicious } from './hit-flags'
import { planTargets, type PlanDeps } from './plan'
import { DEFAULT_TOP_K } from './search-service'
import type { ServerCalls } from './server-calls'
import { actingUser } from './targets'
import type { ActiveProfile } from './types'

export interface SynthesisServiceDeps extends PlanDeps {
  calls: ServerCalls
  profile: ActiveProfile
  now?: () => number
}

export interface SynthesisResult {
  query: string
  elapsedMs: number
  answers: ServerAnswer[]
}

/**
 * One answer per selected server, side by side: the server's own synthesis tool when it has
 * one (rag-tools-v1 `rag_get_synthesized_results`, RAGbox `query_knowledge` with its Silence
 * Protocol), else the console's extractive answer over that server's top hits (`mode:
 * client`, numbered citations, suspicious hits left out). An answer whose text reads like
 * instructions to a model is flagged `suspicious`, as hits are.
 */
export class SynthesisService {
  constructor(private readonly deps: SynthesisServiceDeps) {}

  async run(request: SynthesisRequest & { timeoutMs?: number }): Promise<SynthesisResult> {
    const now = this.deps.now ?? Date.now
    const started = now()
    const profile = this.deps.profile()
    const user = actingUser(profile)
    const topK = request.topK ?? DEFAULT_TOP_K
    const targets = planTargets(this.deps, profile, request.selection)
    const answers = await this.deps.calls.operation('synthesize', () =>
      Promise.all(
        targets.map(async (target): Promise<ServerAnswer> => {
          if (!target.config || target.problem) {
            return { server: target.server, ok: false, error: target.problem!, latencyMs: 0 }
          }
          const config = target.config
          const outcome = await this.deps.calls.run<Answer>(
            config,
            {
              user,
              operation: 'synthesize',
              sources: target.sources,
              budgetMs: request.timeoutMs ?? config.timeoutMs,
            },
            async ({ session, adapter, options }) => {
              if (adapter.synthesize && adapter.capabilities(session.tools).synthesize) {
                const answer = await adapter.synthesize(
                  session,
                  { query: request.query, topK, sources: target.sources },
                  options,
                )
                return { value: answer, resultCount: answer.citations.length }
              }
              const output = await adapter.search(
                session,
                { query: request.query, phrases: [], topK, sources: target.sources },
                options,
              )
              const hits = output.hits.slice(0, topK)
              flagSuspicious(hits)
              const answer = extractiveAnswer(config.id, request.query, hits)
              answer.violations = output.violations
              return {
                value: answer,
                resultCount: answer.citations.length,
                sourceErrors: output.sourceErrors,
              }
            },
          )
          return outcome.ok
            ? {
                server: target.server,
                ok: true,
                latencyMs: outcome.latencyMs,
                answer: flagAnswer(outcome.value),
              }
            : {
                server: target.server,
                ok: false,
                error: outcome.error,
                latencyMs: outcome.latencyMs,
              }
        }),
      ),
    )
    return { query: request.query, elapsedMs: now() - started, answers }
  }
}
