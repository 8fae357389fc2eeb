import { toErrorInfo } from '../../../../shared/errors'
import { isRecord } from '../../dialects/shape'
import { toolNamed } from './replies'
import { verdict, type DoctorCheck } from './types'

const searchTool: DoctorCheck = {
  id: 'generic.search-tool',
  title: 'the mapped search tool exists and its hits are found',
  spec: 'rag-mcp.json § dialect (generic mapping)',
  run: async (probe) => {
    const expected =
      'the tool the mapping names is listed, and a search through the mapping yields hits without violations'
    const setting = probe.config.dialect
    const mapping = isRecord(setting) && isRecord(setting.search) ? setting.search : undefined
    if (!mapping) {
      return verdict(
        'fail',
        expected,
        'no search mapping in the config ({ "search": { "tool": … } })',
        {
          reply: { dialect: setting },
        },
      )
    }
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

/** A server onboarded with a generic mapping. */
export const GENERIC_CHECKS: DoctorCheck[] = [searchTool]
