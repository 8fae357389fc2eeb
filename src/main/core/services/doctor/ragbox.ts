import { isRecord } from '../../dialects/shape'
import { rpcCode } from './protocol'
import { missingTools, payloadOf } from './replies'
import { verdict, type DoctorCheck } from './types'

const SPEC = 'spec 003'
const TOOLS = ['search_documents', 'get_document', 'query_knowledge', 'list_documents'] as const
const UNAUTHORIZED = -32000
const RATE_LIMITED = -32001
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']
/** A question no vault answers, so the Silence Protocol must speak. */
const NONSENSE = 'What is the boiling point of tungsten on Mars in the year 3000?'

const noWire = 'not probed: the server is not reached over plain HTTP'

const tools: DoctorCheck = {
  id: 'ragbox.tools',
  title: 'the four RAGbox tools are listed',
  spec: `${SPEC} § Available Tools`,
  run: async (probe) => {
    const expected = `${TOOLS.join(', ')} are listed`
    const missing = missingTools(probe.tools, TOOLS)
    const exchange = {
      request: { method: 'tools/list' },
      reply: { tools: probe.tools.map((tool) => tool.name) },
    }
    return missing.length === 0
      ? verdict('pass', expected, 'all four', exchange)
      : verdict('fail', expected, `missing: ${missing.join(', ')}`, exchange)
  },
}

const apiKey: DoctorCheck = {
  id: 'ragbox.api-key',
  title: 'a request without X-API-Key is refused with -32000',
  spec: `${SPEC} § Authentication; § Error Codes`,
  run: async (probe) => {
    const expected = 'tools/list without the X-API-Key header: HTTP 401 with JSON-RPC error -32000'
    if (!probe.post) return verdict('not_applicable', expected, noWire)
    const sent = await probe.post({ method: 'tools/list' }, { bare: true, expectError: true })
    const reply = sent.reply
    const error = isRecord(reply?.body) ? reply.body.error : undefined
    const code = isRecord(error) ? error.code : undefined
    if (reply?.status === 401 && code === UNAUTHORIZED)
      return verdict('pass', expected, 'HTTP 401, -32000', sent)
    const found = sent.error
      ? sent.error.message
      : `HTTP ${reply?.status}${code === undefined ? ', no JSON-RPC error' : `, code ${String(code)}`}`
    return verdict('fail', expected, found, sent)
  },
}

const rateLimit: DoctorCheck = {
  id: 'ragbox.rate-limit',
  title: 'replies carry X-RateLimit-* headers',
  spec: `${SPEC} § Rate Limits`,
  run: async (probe) => {
    const expected = `${RATE_HEADERS.join(', ')} on every response, each a whole number`
    if (!probe.post) return verdict('not_applicable', expected, noWire)
    const sent = await probe.post({ method: 'tools/list' })
    const headers = sent.reply?.headers ?? {}
    const shown = {
      request: sent.request,
      reply: sent.error ?? {
        status: sent.reply?.status,
        headers: Object.fromEntries(RATE_HEADERS.map((name) => [name, headers[name] ?? null])),
      },
    }
    const bad = RATE_HEADERS.filter((name) => !/^\d+$/.test(headers[name] ?? ''))
    return bad.length === 0
      ? verdict('pass', expected, 'all three', shown)
      : verdict('fail', expected, `missing or not a number: ${bad.join(', ')}`, shown)
  },
}

const silence: DoctorCheck = {
  id: 'ragbox.silence',
  title: 'query_knowledge keeps the Silence Protocol',
  spec: `${SPEC} § 3. query_knowledge (Silence Protocol)`,
  run: async (probe) => {
    const expected =
      'a question the vault cannot answer: silence true with a silence_reason, an empty answer and no sources'
    const sent = await probe.callTool('query_knowledge', { query: NONSENSE })
    const body = payloadOf(sent.reply)
    const exchange = { request: sent.request, reply: sent.error ?? body ?? sent.reply }
    // -32001 arrives with HTTP 429, which the pool reports as rate_limited.
    if (rpcCode(sent) === RATE_LIMITED || sent.error?.code === 'rate_limited') {
      return verdict(
        'warn',
        expected,
        'rate limited (-32001); run Doctor again in a minute',
        exchange,
      )
    }
    if (sent.error) return verdict('fail', expected, sent.error.message, exchange)
    if (!body) return verdict('fail', expected, 'no JSON in content[0].text', exchange)
    if (body.silence !== true) {
      return verdict('warn', expected, 'it answered a question no vault should know', exchange)
    }
    const ok =
      typeof body.silence_reason === 'string' &&
      body.silence_reason.trim() !== '' &&
      (body.answer === '' || body.answer === undefined) &&
      (!Array.isArray(body.sources) || body.sources.length === 0)
    return ok
      ? verdict('pass', expected, 'silent, with a reason', exchange)
      : verdict(
          'fail',
          expected,
          'silence without a silence_reason, or with an answer or sources',
          exchange,
        )
  },
}

const rateLimited: DoctorCheck = {
  id: 'ragbox.rate-limited',
  title: 'a request over the allowance is refused with -32001',
  spec: `${SPEC} § Error Codes; § Rate Limits`,
  notProvoked: true,
  run: async () =>
    verdict(
      'not_applicable',
      'a request over the per-minute allowance: HTTP 429 with JSON-RPC error -32001',
      'not applicable: not provoked, to respect the rate limit',
    ),
}

/** Spec 003. -32001 is named, not provoked: that would spend the key's per-minute allowance. */
export const RAGBOX_CHECKS: DoctorCheck[] = [tools, apiKey, rateLimit, silence, rateLimited]
