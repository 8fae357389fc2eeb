import { toErrorInfo } from '#shared/errors'
import { isRecord } from '../../dialects/shape'
import { STRANGER, schemaOf, toolNamed } from './replies'
import { verdict, type DoctorCheck, type Probe, type Provoking } from './types'

const SPEC = 'spec 000'
/** Broad phrases, so that a user who may read anything gets something back. */
const PHRASES = ['policy', 'how to request access', 'guide']

const segmentIds = (reply: unknown): string[] | undefined => {
  const segments = isRecord(reply) ? reply.segments : undefined
  if (!Array.isArray(segments)) return undefined
  return segments.map((segment) => (isRecord(segment) ? String(segment.segment_uid) : '?'))
}

const search = (probe: Probe, phrases: string[], user = probe.user, how?: Provoking) =>
  probe.callTool('rag_search', { search_phrases: phrases }, user, how)

/** Asks for an error on purpose: a refusal is the right answer. */
const PROVOKING: Provoking = { expectError: true }

const tool: DoctorCheck = {
  id: 'rag-search.tool',
  title: 'rag_search takes 1–5 search_phrases',
  spec: `${SPEC} § rag_search tool parameters`,
  run: async (probe) => {
    const expected =
      'rag_search is listed; search_phrases is a required array of strings with minItems 1 and maxItems 5'
    const listed = toolNamed(probe.tools, 'rag_search')
    const reply = { tool: listed ?? null }
    const request = { method: 'tools/list' }
    if (!listed) return verdict('fail', expected, 'no rag_search tool', { request, reply })
    const { properties, required } = schemaOf(listed)
    const phrases = properties.search_phrases
    const ok =
      phrases?.type === 'array' &&
      phrases.minItems === 1 &&
      phrases.maxItems === 5 &&
      required.includes('search_phrases')
    return ok
      ? verdict('pass', expected, 'declared as the spec says', { request, reply })
      : verdict('fail', expected, 'search_phrases is not declared as a required 1–5 array', {
          request,
          reply,
        })
  },
}

const phrases: DoctorCheck = {
  id: 'rag-search.phrases',
  title: 'more than 5 or no search phrases are refused',
  spec: `${SPEC} § rag_search tool parameters`,
  run: async (probe) => {
    const expected = 'calls with 0 or 6 search phrases end in an error'
    const none = await search(probe, [], probe.user, PROVOKING)
    const six = await search(
      probe,
      [...PHRASES, 'onboarding', 'security', 'travel'],
      probe.user,
      PROVOKING,
    )
    const exchange = { request: [none.request, six.request], reply: [none, six] }
    const accepted = [none, six].filter((sent) => !sent.error && sent.reply?.isError !== true)
    return accepted.length === 0
      ? verdict('pass', expected, 'both refused', exchange)
      : verdict('fail', expected, `${accepted.length} of the 2 calls were answered`, exchange)
  },
}

const shape: DoctorCheck = {
  id: 'rag-search.shape',
  title: 'the result is {status, segments} without violations',
  spec: `${SPEC} § Response format`,
  run: async (probe) => {
    const expected =
      'result = {status: "success", segments: [...]} at the top level, at most 20 segments, each with the fields the spec lists'
    const request = {
      method: 'tools/call',
      params: { name: 'rag_search', arguments: { search_phrases: PHRASES } },
    }
    let parsed
    try {
      const input = { query: PHRASES[0]!, phrases: PHRASES.slice(1), topK: 20, sources: [] }
      parsed = await probe.adapter.search(probe.session, input, probe.options)
    } catch (error) {
      const info = toErrorInfo(error)
      return verdict('fail', expected, `the search failed: ${info.message}`, {
        request,
        error: info,
      })
    }
    const raw = parsed.raw
    const reply = { result: raw, violations: parsed.violations }
    if (!isRecord(raw) || typeof raw.status !== 'string' || !Array.isArray(raw.segments)) {
      return verdict('fail', expected, 'no status string and segments array at the top level', {
        request,
        reply,
      })
    }
    return parsed.violations.length === 0
      ? verdict('pass', expected, `${raw.segments.length} segment(s), no violation`, {
          request,
          reply,
        })
      : verdict('fail', expected, parsed.violations.map((v) => v.message).join('; '), {
          request,
          reply,
        })
  },
}

const identity: DoctorCheck = {
  id: 'rag-search.identity',
  title: 'x-user-id / x-session-tags change what is returned',
  spec: `${SPEC} § Headers included with this request`,
  run: async (probe) => {
    const expected =
      'a stranger (another x-user-id, no session tags) gets other segments than the acting user, or is refused'
    const mine = await search(probe, PHRASES)
    const theirs = await search(probe, PHRASES, STRANGER, PROVOKING)
    const exchange = {
      request: [
        { as: probe.user.userId, ...(mine.request as object) },
        { as: STRANGER.userId, ...(theirs.request as object) },
      ],
      reply: [
        mine.error ?? { segments: segmentIds(mine.reply) },
        theirs.error ?? { segments: segmentIds(theirs.reply) },
      ],
    }
    if (mine.error)
      return verdict(
        'fail',
        expected,
        `the acting user's search failed: ${mine.error.message}`,
        exchange,
      )
    if (theirs.error) return verdict('pass', expected, 'the stranger was refused', exchange)
    const a = JSON.stringify(segmentIds(mine.reply))
    const b = JSON.stringify(segmentIds(theirs.reply))
    if (a !== b) return verdict('pass', expected, 'the stranger got other segments', exchange)
    return probe.user.sessionTags.length === 0
      ? verdict(
          'warn',
          expected,
          'the same segments for both, but the acting profile has no session tags either; run as a profile with tags',
          exchange,
        )
      : verdict('fail', expected, 'the stranger got exactly what the acting user gets', exchange)
  },
}

const verify: DoctorCheck = {
  id: 'rag-search.verify',
  title: 'verify_document_access answers with a has_access verdict',
  spec: `${SPEC} § verify_document_access`,
  run: async (probe) => {
    const expected =
      'has_access is a boolean for a segment the search returned, and false for an unknown segment_uid'
    if (!toolNamed(probe.tools, 'verify_document_access')) {
      return verdict(
        'not_applicable',
        expected,
        'the optional verify_document_access is not listed',
      )
    }
    const found = await search(probe, PHRASES)
    const uid = segmentIds(found.reply)?.[0]
    const known = uid
      ? await probe.callTool('verify_document_access', { segment_uid: uid })
      : undefined
    const unknown = await probe.callTool(
      'verify_document_access',
      { segment_uid: 'doctor-probe-no-such-segment' },
      probe.user,
      PROVOKING,
    )
    const sent = known ? [known, unknown] : [unknown]
    const exchange = {
      request: sent.map((one) => one.request),
      reply: sent.map((one) => one.error ?? one.reply),
    }
    const verdictOf = (reply: unknown): unknown => (isRecord(reply) ? reply.has_access : undefined)
    const bad = sent.filter((one) => typeof verdictOf(one.reply) !== 'boolean')
    if (bad.length > 0)
      return verdict('fail', expected, 'has_access is missing or not a boolean', exchange)
    if (verdictOf(unknown.reply) !== false)
      return verdict('fail', expected, 'an unknown segment was granted', exchange)
    return verdict(
      'pass',
      expected,
      uid
        ? 'both verdicts well formed'
        : 'the unknown segment was denied (the search found nothing to verify)',
      exchange,
    )
  },
}

/** Spec 000. */
export const RAG_SEARCH_CHECKS: DoctorCheck[] = [tool, phrases, shape, identity, verify]
