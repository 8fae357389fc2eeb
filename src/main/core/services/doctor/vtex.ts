import { isRecord } from '../../dialects/shape'
import { payloadOf, schemaOf, toolNamed } from './replies'
import { verdict, type DoctorCheck, type Probe } from './types'

const SPEC = 'spec 004'
const noWire = 'not probed: the server is not reached over plain HTTP'
/** The router's instance name Doctor uses. */
const INSTANCE = 'doctor'

/**
 * The base of the per-method endpoints: the configured URL itself (`…/mcp`), or its parent when
 * the config points at the generic router (`…/mcp/<instance>`).
 */
export function vtexBase(url: string): string {
  const parsed = new URL(url)
  const path = parsed.pathname.replace(/\/+$/, '')
  const last = path.slice(path.lastIndexOf('/') + 1)
  parsed.pathname = last === 'mcp' ? path : path.slice(0, path.lastIndexOf('/'))
  return parsed.toString().replace(/\/+$/, '')
}

/** Doctor's instance of the generic router (`…/mcp/doctor`). */
export const vtexRouter = (url: string): string => `${vtexBase(url)}/${INSTANCE}`

const resultOf = (body: unknown): unknown => (isRecord(body) ? body.result : undefined)

const handshake: DoctorCheck = {
  id: 'vtex.handshake',
  title: 'the non-standard handshake answers',
  spec: `${SPEC} § 1. Handshake`,
  run: async (probe) => {
    const expected = 'POST …/handshake answers with a version string and a capabilities array'
    if (!probe.post || !probe.url) return verdict('not_applicable', expected, noWire)
    const sent = await probe.post(
      { method: 'handshake', params: { version: '1.0.0', capabilities: ['tools', 'resources'] } },
      { url: `${vtexBase(probe.url)}/handshake` },
    )
    const result = resultOf(sent.reply?.body)
    return isRecord(result) &&
      typeof result.version === 'string' &&
      Array.isArray(result.capabilities)
      ? verdict('pass', expected, `version ${result.version}`, sent)
      : verdict('fail', expected, 'no version and capabilities in the result', sent)
  },
}

const endpoints: DoctorCheck = {
  id: 'vtex.endpoints',
  title: 'per-method endpoints and the generic router both answer',
  spec: `${SPEC} § 3. Tools List; § 8. Generic MCP Router`,
  run: async (probe) => {
    const expected = `tools/list answers with a tools array at …/tools/list and at the router …/${INSTANCE}`
    if (!probe.post || !probe.url) return verdict('not_applicable', expected, noWire)
    const base = vtexBase(probe.url)
    const sent = [
      await probe.post({ method: 'tools/list' }, { url: `${base}/tools/list` }),
      await probe.post({ method: 'tools/list' }, { url: vtexRouter(probe.url) }),
    ]
    const exchange = {
      request: sent.map((one) => one.request),
      reply: sent.map((one) => one.error ?? one.reply),
    }
    const failing = sent.filter((one) => {
      const result = resultOf(one.reply?.body)
      return !isRecord(result) || !Array.isArray(result.tools)
    })
    if (failing.length === 0) return verdict('pass', expected, 'both answer', exchange)
    const where = failing.map((one) => (one.request as { url: string }).url).join(', ')
    return verdict('fail', expected, `no tools from ${where}`, exchange)
  },
}

const resources: DoctorCheck = {
  id: 'vtex.resources',
  title: 'resources are rag:// URIs that can be read',
  spec: `${SPEC} § 5. Resources List; § 6. Resources Read; § Resource URI Patterns`,
  run: async (probe) => {
    const expected =
      'resources/list lists rag:// URIs; resources/read of the first returns its contents'
    const listed = await probe.request('resources/list')
    const list =
      isRecord(listed.reply) && Array.isArray(listed.reply.resources)
        ? listed.reply.resources
        : undefined
    const uris = (list ?? []).map((resource) => (isRecord(resource) ? resource.uri : undefined))
    const shown = { request: listed.request, reply: listed.error ?? { uris } }
    if (!list || list.length === 0) return verdict('fail', expected, 'no resources listed', shown)
    const foreign = uris.filter((uri) => typeof uri !== 'string' || !uri.startsWith('rag://'))
    if (foreign.length > 0) {
      return verdict(
        'fail',
        expected,
        `${foreign.length} URI(s) outside rag://, e.g. ${String(foreign[0])}`,
        shown,
      )
    }
    const read = await probe.request('resources/read', { uri: uris[0] })
    const exchange = {
      request: [listed.request, read.request],
      reply: [{ uris }, read.error ?? read.reply],
    }
    const contents = isRecord(read.reply) ? read.reply.contents : undefined
    return Array.isArray(contents) && contents.length > 0
      ? verdict(
          'pass',
          expected,
          `${uris.length} rag:// resource(s); ${String(uris[0])} read`,
          exchange,
        )
      : verdict('fail', expected, `reading ${String(uris[0])} gave no contents`, exchange)
  },
}

interface VtexDoc {
  category?: string
  author?: string
  tags?: string[]
}

const docsOf = (body: Record<string, unknown> | undefined): VtexDoc[] | undefined =>
  Array.isArray(body?.results) ? (body.results.filter(isRecord) as VtexDoc[]) : undefined

const FILTERS = ['category', 'tags', 'author'] as const

const filters: DoctorCheck = {
  id: 'vtex.filters',
  title: 'search_documents filters by category, tags and author',
  spec: `${SPEC} § search_documents Tool Arguments`,
  run: async (probe) => {
    const expected =
      'search_documents declares category, tags and author; each filter returns only matching documents'
    const listed = toolNamed(probe.tools, 'search_documents')
    const { properties } = schemaOf(listed)
    const undeclared = FILTERS.filter((name) => !properties[name])
    if (!listed || undeclared.length > 0) {
      return verdict(
        'fail',
        expected,
        `not declared: ${listed ? undeclared.join(', ') : 'search_documents'}`,
        {
          request: { method: 'tools/list' },
          reply: { tool: listed ?? null },
        },
      )
    }
    const all = await probe.callTool('search_documents', { limit: 50 })
    const sample = docsOf(payloadOf(all.reply))?.find(
      (doc) => doc.category && doc.author && doc.tags?.length,
    )
    if (!sample)
      return verdict('fail', expected, 'an unfiltered search found no document to filter by', all)
    return filtered(probe, sample, expected)
  },
}

async function filtered(probe: Probe, sample: VtexDoc, expected: string) {
  const tries = [
    {
      args: { category: sample.category },
      keeps: (doc: VtexDoc) => doc.category?.toLowerCase() === sample.category!.toLowerCase(),
    },
    {
      args: { tags: [sample.tags![0]] },
      keeps: (doc: VtexDoc) => doc.tags?.includes(sample.tags![0]!) === true,
    },
    {
      args: { author: sample.author },
      keeps: (doc: VtexDoc) =>
        doc.author?.toLowerCase().includes(sample.author!.toLowerCase()) === true,
    },
  ]
  const requests: unknown[] = []
  const replies: unknown[] = []
  for (const [index, attempt] of tries.entries()) {
    const sent = await probe.callTool('search_documents', { ...attempt.args, limit: 50 })
    const docs = docsOf(payloadOf(sent.reply))
    requests.push(sent.request)
    replies.push(
      sent.error ?? {
        results: docs?.map(({ category, author, tags }) => ({ category, author, tags })),
      },
    )
    const name = FILTERS[index]!
    if (!docs || docs.length === 0) {
      return verdict('fail', expected, `the ${name} filter found nothing, not even the sample`, {
        request: requests,
        reply: replies,
      })
    }
    if (!docs.every(attempt.keeps)) {
      return verdict('fail', expected, `the ${name} filter let other documents through`, {
        request: requests,
        reply: replies,
      })
    }
  }
  return verdict('pass', expected, 'each filter kept only matching documents', {
    request: requests,
    reply: replies,
  })
}

/** Spec 004. */
export const VTEX_CHECKS: DoctorCheck[] = [handshake, endpoints, resources, filters]
