import { expect } from 'vitest'
import type { Answer, AccessResult, Hit, Resource, Violation } from '#shared/model/rag'
import { isViolationRule } from '#shared/model/violations'
import { SNIPPET_MAX_CHARS } from '#shared/text/sentences'

/**
 * What every adapter result must look like, whatever the server sent: known violation rules with
 * paths, hits with an id, title and bounded snippet, flags that agree with the violations,
 * scores that are numbers or absent. Used by the property tests and by integration tests against
 * real servers.
 */
export type WellFormedSubject = {
  hits?: Hit[]
  resources?: Resource[]
  violations: Violation[]
} & Partial<Answer> &
  Partial<AccessResult>

export function expectWellFormed(parsed: WellFormedSubject): void {
  expect(Array.isArray(parsed.violations)).toBe(true)
  for (const violation of parsed.violations) {
    expect(isViolationRule(violation.rule)).toBe(true)
    expect(typeof violation.path).toBe('string')
    expect(typeof violation.message).toBe('string')
  }
  for (const hit of parsed.hits ?? []) {
    expect(typeof hit.id).toBe('string')
    expect(hit.id.length).toBeGreaterThan(0)
    expect(typeof hit.title).toBe('string')
    expect(typeof hit.snippet).toBe('string')
    expect(hit.snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS)
    expect(hit.flags.includes('violations')).toBe(hit.violations.length > 0)
    if (hit.score !== undefined) expect(Number.isFinite(hit.score)).toBe(true)
  }
  for (const resource of parsed.resources ?? []) {
    expect(typeof resource.id).toBe('string')
    expect(typeof resource.name).toBe('string')
  }
  for (const citation of parsed.citations ?? []) expect(citation.n).toBeGreaterThan(0)
}
