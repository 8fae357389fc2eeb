import { isRecord } from '../../dialects/shape'
import { STRANGER, missingTools, payloadOf, schemaOf, toolNamed } from './replies'
import { verdict, type DoctorCheck, type Probe, type Provoking } from './types'

const REQUIRED = ['rag_discover_resources', 'rag_get_raw_results'] as const
const OPTIONAL = 'rag_get_synthesized_results'
const QUERY = 'policy'

const raw = (probe: Probe, username: string, how?: Provoking) =>
  probe.callTool('rag_get_raw_results', { username, query: QUERY, top_k: 3 }, probe.user, how)

const tools: DoctorCheck = {
  id: 'rag-tools-v1.tools',
  title: 'the three tools, each requiring username',
  spec: 'spec 001 § TL;DR — implement these tools; spec 002 § Tool contracts',
  run: async (probe) => {
    const expected = `${REQUIRED.join(' and ')} (and optionally ${OPTIONAL}) are listed, each with username: string required`
    const names = [...REQUIRED, OPTIONAL].filter((name) => toolNamed(probe.tools, name))
    const request = { method: 'tools/list' }
    const reply = {
      tools: names.map((name) => ({ name, ...schemaOf(toolNamed(probe.tools, name)) })),
    }
    const missing = missingTools(probe.tools, REQUIRED)
    if (missing.length > 0)
      return verdict('fail', expected, `missing: ${missing.join(', ')}`, { request, reply })
    const loose = names.filter((name) => {
      const { properties, required } = schemaOf(toolNamed(probe.tools, name))
      return properties.username?.type !== 'string' || !required.includes('username')
    })
    if (loose.length > 0) {
      return verdict('fail', expected, `username is not a required string in ${loose.join(', ')}`, {
        request,
        reply,
      })
    }
    const found = names.includes(OPTIONAL) ? 'all three' : `both required (no ${OPTIONAL})`
    return verdict('pass', expected, `${found}, username required`, { request, reply })
  },
}

const envelope: DoctorCheck = {
  id: 'rag-tools-v1.envelope',
  title: 'replies are v2 envelopes {results, meta_data, artifacts}',
  spec: 'spec 001 § TL;DR (MCP v2 envelope); spec 002 § Tool contracts',
  run: async (probe) => {
    const expected =
      'structuredContent (or the JSON text) is an object with results; meta_data an object and artifacts an array when present; username injected as the acting user'
    const sent = [
      await probe.callTool('rag_discover_resources', { username: probe.user.userId }),
      await raw(probe, probe.user.userId),
    ]
    const exchange = {
      request: sent.map((one) => one.request),
      reply: sent.map((one) => one.error ?? payloadOf(one.reply) ?? one.reply),
    }
    for (const one of sent) {
      const name = (one.request as { params: { name: string } }).params.name
      if (one.error)
        return verdict('fail', expected, `${name} failed: ${one.error.message}`, exchange)
      const body = payloadOf(one.reply)
      if (!body || !isRecord(body.results)) {
        return verdict('fail', expected, `${name}: no results object in the reply`, exchange)
      }
      if (body.meta_data !== undefined && !isRecord(body.meta_data))
        return verdict('fail', expected, `${name}: meta_data is not an object`, exchange)
      if (body.artifacts !== undefined && !Array.isArray(body.artifacts))
        return verdict('fail', expected, `${name}: artifacts is not an array`, exchange)
    }
    return verdict('pass', expected, 'both replies are v2 envelopes', exchange)
  },
}

const unauthorized: DoctorCheck = {
  id: 'rag-tools-v1.unauthorized',
  title: 'an unknown username is refused with unauthorized_user',
  spec: 'spec 002 § Tool contracts (error codes in results.error)',
  run: async (probe) => {
    const expected =
      'rag_get_raw_results for an unknown username reports results.error unauthorized_user and no hits'
    const sent = await raw(probe, STRANGER.userId, { expectError: true })
    const body = payloadOf(sent.reply)
    const exchange = { request: sent.request, reply: sent.error ?? body ?? sent.reply }
    if (sent.error) {
      return verdict(
        'warn',
        expected,
        `refused, but as a call error (${sent.error.message})`,
        exchange,
      )
    }
    const error = isRecord(body?.results) ? body.results.error : undefined
    const code = isRecord(error) ? error.code : error
    if (code === 'unauthorized_user')
      return verdict('pass', expected, 'unauthorized_user', exchange)
    if (code !== undefined)
      return verdict('warn', expected, `refused with ${JSON.stringify(code)}`, exchange)
    return verdict('fail', expected, 'the stranger was answered without an error', exchange)
  },
}

/** Specs 001 and 002. */
export const RAG_TOOLS_V1_CHECKS: DoctorCheck[] = [tools, envelope, unauthorized]
