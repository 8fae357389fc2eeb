import type { Answer, Hit } from '#shared/model/rag'
import { looksLikeInjection } from '#shared/text/injection'

/**
 * Marks hits whose title, snippet, summary or text reads like an instruction aimed at a model
 * (spec 001 warns about data poisoning) with the `suspicious` flag. Flags, never drops: a
 * person decides. Returns how many it marked.
 */
export function flagSuspicious(hits: Hit[]): number {
  let marked = 0
  for (const hit of hits) {
    if (hit.flags.includes('suspicious')) continue
    const found = [hit.title, hit.snippet, hit.summary, hit.text].some(looksLikeInjection)
    if (found) {
      hit.flags.push('suspicious')
      marked++
    }
  }
  return marked
}

/**
 * Sets an answer's flags: `suspicious` when its text reads like an instruction aimed at a model
 * (a server's synthesis can quote a poisoned passage as it is), else none.
 */
export function flagAnswer(answer: Answer): Answer {
  answer.flags = looksLikeInjection(answer.text) ? ['suspicious'] : []
  return answer
}
