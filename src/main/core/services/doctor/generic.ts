import { toErrorInfo } from '../../../../shared/errors'
import { isRecord } from '../../dialects/shape'
import type { ToolInfo } from '../../../../shared/model/server'
import { payloadOf, schemaOf, toolNamed } from './replies'
import { verdict, type DoctorCheck, type Probe, type Verdict } from './types'

const searchTool: DoctorCheck = {
  id: 'generic.search-tool',
  title: 'the mapped search tool exists and its hits are found',
  spec: 'rag-mcp.json § dialect (generic mapping)',
  run: async (probe) => {
    const expected =
      'the tool the mapping names is listed, and a search through the mapping yields hits without violations'
    const setting = probe.config.dialect
    const mapping = isRecord(setting) && isRecord(setting.search) ? setting.search : undefined
    if (!mapping) return suggest(probe, expected)
    const name = String(mapping.tool)
    if (!toolNamed(probe.tools, name)) {
      return verdict(
        'fail',
        expected,
        `the mapping names "${name}", which the server does not list`,
        {
          request: { method: 'tools/list' },
          reply: { mapping, tools: probe.tools.map((tool) => tool.name) },
        },
      )
    }
    const input = { query: 'policy', phrases: [], topK: 5, sources: [] }
    const request = { mapping, search: input }
    try {
      const found = await probe.adapter.search(probe.session, input, probe.options)
      const reply = {
        hits: found.hits.map((hit) => ({
          id: hit.id,
          title: hit.title,
          uri: hit.uri,
          score: hit.score,
        })),
        violations: found.violations,
      }
      if (found.violations.length > 0) {
        return verdict('fail', expected, found.violations.map((v) => v.message).join('; '), {
          request,
          reply,
        })
      }
      return found.hits.length > 0
        ? verdict('pass', expected, `${found.hits.length} hit(s) through ${name}`, {
            request,
            reply,
          })
        : verdict('warn', expected, `${name} answered, but the mapping found no hits`, {
            request,
            reply,
          })
    } catch (error) {
      const info = toErrorInfo(error)
      return verdict('fail', expected, `the search failed: ${info.message}`, {
        request,
        error: info,
      })
    }
  },
}

/** Words that make a tool look like search, and the argument names that take the query. */
const SEARCH_WORDS = /search|query|find|retriev|lookup|ask/i
const QUERY_ARGS = ['query', 'q', 'question', 'search', 'text', 'prompt', 'keywords']

/** The search-like tool a mapping could use, and the argument its query goes into. */
function searchLike(tools: ToolInfo[]): { tool: string; arg: string } | undefined {
  for (const tool of tools.filter((candidate) => SEARCH_WORDS.test(candidate.name))) {
    const { properties, required } = schemaOf(tool)
    const strings = Object.keys(properties).filter((name) => properties[name]?.type === 'string')
    const arg =
      QUERY_ARGS.find((name) => strings.includes(name)) ??
      strings.find((name) => required.includes(name))
    if (arg) return { tool: tool.name, arg }
  }
  return undefined
}

/** No mapping yet: find a search-like tool, call it once and show the mapping to start from. */
async function suggest(probe: Probe, expected: string): Promise<Verdict> {
  const found = searchLike(probe.tools)
  const names = probe.tools.map((tool) => tool.name)
  if (!found) {
    const listed = names.length > 0 ? names.join(', ') : 'no tools'
    return verdict('fail', expected, `no mapping, and no search-like tool among ${listed}`, {
      request: { method: 'tools/list' },
      reply: { tools: names },
    })
  }
  const suggested = { search: { tool: found.tool, arguments: { [found.arg]: '{query}' } } }
  const sent = await probe.callTool(found.tool, { [found.arg]: 'policy' })
  return verdict(
    'warn',
    expected,
    `no mapping yet; ${found.tool} looks like search: set "dialect" to the suggested mapping, then point "hits" and "fields" at the reply`,
    {
      request: sent.request,
      reply: { suggested, reply: sent.error ?? payloadOf(sent.reply) ?? sent.reply },
    },
  )
}

/** A server onboarded with a generic mapping, or of no known family. */
export const GENERIC_CHECKS: DoctorCheck[] = [searchTool]
