import { ConsoleError, type ErrorCode, type ErrorInfo } from '#shared/errors'
import type { Violation } from '#shared/model/rag'
import type { ActingUser } from '#shared/model/user'
import type { CallOptions, RawToolResult, ServerSession } from '../pool/types'
import { throwIfToolError } from './payload'
import { isRecord, jsonType, type Violations } from './shape'
import type { DiscoverOutput, SearchOutput } from './types'

/** Helpers shared by the adapters around making calls and reporting their failures. */

/** An error a server reported inside a reply, as an {@link ErrorInfo} about that server. */
export function serverError(
  server: string,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): ErrorInfo {
  const info: ErrorInfo = { code, message, origin: 'server', server }
  if (details) info.details = details
  return info
}

/** The acting user, or a clear local error for families that must name one. */
export function requireUser(server: string, options: CallOptions, dialect: string): ActingUser {
  if (options.user?.userId) return options.user
  throw new ConsoleError({
    code: 'invalid_argument',
    origin: 'local',
    server,
    message: `server ${server}: ${dialect} calls must name the acting user; choose a profile (view as) and try again`,
  })
}

/** A raw result as an object; anything else is an `unexpected_envelope` and reads as `{}`. */
export function asToolResult(raw: unknown, out: Violations): RawToolResult {
  if (isRecord(raw)) return raw
  out.add('unexpected_envelope', '', `a tool result should be an object, got ${jsonType(raw)}`, raw)
  return {}
}

/**
 * Calls a tool whose reply may be nothing but an error the server put inside it, and parses the
 * reply once. The pool asks `parse` for that `failure` before it records the call, so a refusal
 * counts in the server's health as a failed call with its code (once: the call itself is not
 * counted again); the parsed reply comes back here, `failure` included, for the caller to throw.
 * An `isError` result throws `tool_error`. `parse` must not throw.
 */
export async function callParsed<T extends { failure?: ErrorInfo }>(
  session: ServerSession,
  tool: string,
  args: Record<string, unknown>,
  options: CallOptions,
  parse: (raw: unknown) => T,
): Promise<T> {
  // Each call has its own closure, so concurrent calls never see each other's replies.
  let seen: { raw: unknown; parsed: T } | undefined
  const judge = (raw: unknown): ErrorInfo | undefined => {
    seen = { raw, parsed: parse(raw) }
    return seen.parsed.failure
  }
  const raw = await session.callTool(tool, args, { ...options, judge })
  throwIfToolError(raw, session, tool)
  // A session that does not run judges (or wrapped the reply) gets the reply parsed here.
  return seen && seen.raw === raw ? seen.parsed : parse(raw)
}

/** Throws a parsed reply's failure (an error-only reply) as a {@link ConsoleError}. */
export function unwrap<T extends { failure?: ErrorInfo }>(parsed: T): Omit<T, 'failure'> {
  if (parsed.failure) throw new ConsoleError(parsed.failure)
  const { failure: _none, ...value } = parsed
  return value
}

/** One call of a per-source fan-out (vtex filters, rag-tools-v1 capability tokens). */
export interface SourceCall<T> {
  /** The source ids this call answers for (empty: the server's default). */
  sources: string[]
  run: () => Promise<T>
}

export interface FanOutResult<T> {
  done: { sources: string[]; value: T; index: number }[]
  sourceErrors: { sourceId: string; error: ErrorInfo }[]
}

/**
 * Runs the calls in parallel. A failed call becomes an error for each of its sources; when every
 * call failed there is nothing to show and the first failure is thrown as it was.
 */
export async function fanOut<T>(calls: SourceCall<T>[]): Promise<FanOutResult<T>> {
  const settled = await Promise.allSettled(calls.map((call) => call.run()))
  const result: FanOutResult<T> = { done: [], sourceErrors: [] }
  let firstFailure: unknown
  settled.forEach((outcome, index) => {
    const call = calls[index] as SourceCall<T>
    if (outcome.status === 'fulfilled') {
      result.done.push({ sources: call.sources, value: outcome.value, index })
      return
    }
    firstFailure ??= outcome.reason
    const error = ConsoleError.from(outcome.reason).toInfo()
    const sources = call.sources.length > 0 ? call.sources : ['*']
    for (const sourceId of sources) result.sourceErrors.push({ sourceId, error })
  })
  if (result.done.length === 0 && calls.length > 0) throw ConsoleError.from(firstFailure)
  return result
}

/**
 * Rewrites violation paths of one of several replies so they point into the array of raw
 * replies (`segments[0]` of reply 2 → `[2].segments[0]`). Hits share these objects, so their
 * own lists follow.
 */
export function prefixPaths(violations: Violation[], index: number): void {
  const prefix = `[${index}]`
  for (const violation of violations) {
    const path = violation.path
    violation.path =
      path === '' ? prefix : path.startsWith('[') ? prefix + path : `${prefix}.${path}`
  }
}

/**
 * Runs one search call per group of sources and merges their outputs: hits and violations in
 * call order, each violation path prefixed with its call's index into `raw` (an array holding
 * each call's raw reply, null for a failed one). A single call is returned unchanged.
 */
export async function searchPerSource(calls: SourceCall<SearchOutput>[]): Promise<SearchOutput> {
  const { done, sourceErrors } = await fanOut(calls)
  if (calls.length === 1 && done[0]) return done[0].value
  const merged: SearchOutput = {
    hits: [],
    violations: [],
    sourceErrors,
    raw: calls.map(() => null),
  }
  for (const { value, index } of done) {
    prefixPaths(value.violations, index)
    merged.hits.push(...value.hits)
    merged.violations.push(...value.violations)
    merged.sourceErrors.push(...value.sourceErrors)
    if (value.artifacts) (merged.artifacts ??= []).push(...value.artifacts)
    ;(merged.raw as unknown[])[index] = value.raw
  }
  return merged
}

/**
 * Merges the pages of a paged discovery; violation paths are prefixed with the page's index
 * into `raw` (an array of the pages' raw replies). A single page is returned as it is.
 */
export function mergePages(pages: DiscoverOutput[]): DiscoverOutput {
  if (pages.length === 1 && pages[0]) {
    const { resources, violations, raw } = pages[0]
    return { resources, violations, raw }
  }
  pages.forEach((page, index) => prefixPaths(page.violations, index))
  return {
    resources: pages.flatMap((page) => page.resources),
    violations: pages.flatMap((page) => page.violations),
    raw: pages.map((page) => page.raw),
  }
}

/** Whether the server listed a tool of that name. */
export function hasTool(session: { tools: { name: string }[] }, name: string): boolean {
  return session.tools.some((tool) => tool.name === name)
}

/** Clamps a requested count into a tool's documented range. */
export function clampInt(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return min
  return Math.min(max, Math.max(min, Math.round(value)))
}
