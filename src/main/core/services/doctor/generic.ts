import { toErrorInfo } from '#shared/errors'
import { suggestSearchTools } from '../../dialects/search-suggestion'
import { isRecord } from '../../dialects/shape'
import { cliCommand } from '#shared/workbench/copy'
import { payloadOf, toolNamed } from './replies'
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
        : verdict(
            'warn',
            expected,
            `${name} answered, but the mapping found no hits for "${input.query}"`,
            {
              request,
              reply,
            },
          )
    } catch (error) {
      const info = toErrorInfo(error)
      return verdict('fail', expected, `the search failed: ${info.message}`, {
        request,
        error: info,
      })
    }
  },
}

/**
 * No mapping yet: find a search-like tool and show the mapping to start from. Doctor calls it
 * once only when the server says it only reads; any other is offered, with the way to try it.
 */
async function suggest(probe: Probe, expected: string): Promise<Verdict> {
  const candidates = suggestSearchTools(probe.tools)
  const names = probe.tools.map((tool) => tool.name)
  // The one Doctor may call (the server says it only reads) first, else the likeliest.
  const found = candidates.find((candidate) => candidate.readOnly) ?? candidates[0]
  if (!found) {
    const listed = names.length > 0 ? names.join(', ') : 'no tools'
    return verdict('fail', expected, `no mapping, and no search-like tool among ${listed}`, {
      request: { method: 'tools/list' },
      reply: { tools: names },
    })
  }
  const { tool, queryArgument } = found
  const suggested = { search: { tool, arguments: { [queryArgument]: '{query}' } } }
  const args = { [queryArgument]: 'policy' }
  const advice = `map it from a reply: Workbench → ${tool} → Use as search, or rag-console map --server ${probe.session.serverId} --tool ${tool} --query TEXT`
  if (!found.readOnly) {
    const reason = `Doctor calls only tools known to read, and ${tool} has no readOnlyHint`
    const result = verdict(
      'warn',
      expected,
      `no mapping yet; ${tool} looks like search but was not called, as it does not say it only reads. Try it by hand (offered below, or Workbench → Tools), then ${advice}`,
      { request: { method: 'tools/list' }, reply: { suggested, tools: names } },
    )
    result.evidence.offered = {
      tool,
      arguments: args,
      reason,
      command: cliCommand({ server: probe.session.serverId, tool, arguments: args }, REGISTRY),
    }
    return result
  }
  const sent = await probe.callTool(tool, args)
  return verdict('warn', expected, `no mapping yet; ${tool} looks like search: ${advice}`, {
    request: sent.request,
    reply: { suggested, reply: sent.error ?? payloadOf(sent.reply) ?? sent.reply },
  })
}

/** `rag-console call --server ID`: the CLI finds the server, its keys and headers itself. */
const REGISTRY = { kind: 'registry', transport: 'stdio', headers: {} } as const

/** A server onboarded with a generic mapping, or of no known family. */
export const GENERIC_CHECKS: DoctorCheck[] = [searchTool]
