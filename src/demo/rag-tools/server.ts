import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { broken } from '../breaks'
import { withinLatency } from '../latency'
import { sendJson } from '../http/jsonrpc'
import type { Handler } from '../http/listen'
import type { Envelope, RagTools } from './tools'

const usernameText = 'The acting user, injected by the host application (never typed by a person)'
/** Broken: `username` no longer required, so a host may leave it out. */
const username = () =>
  broken('rag-tools-v1.tools')
    ? z.string().optional().describe(usernameText)
    : z.string().describe(usernameText)
const query = z.string().describe('The search query')
const sources = z.array(z.string()).optional().describe('Resource ids from rag_discover_resources')
const topK = z.number().int().min(1).max(50).optional().describe('Number of hits (default 8)')
const capabilityToken = z
  .string()
  .optional()
  .describe('Sensitive: capability token for sources whose authMode is "capability"')

/** The v2 envelope as `structuredContent` and, for older clients, as JSON in a text block. */
function toResult(envelope: Envelope): CallToolResult {
  if (broken('rag-tools-v1.envelope') && !envelope.results.error) {
    // Broken: the payload under a key spec 001 does not know.
    const { results, ...rest } = envelope
    envelope = { ...rest, data: results } as unknown as Envelope
  }
  return {
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
  }
}

/** An MCP server with the three rag-tools-v1 tools (specs 001/002). */
/** `latencyMs`: this instance's backend latency (default: the process's `--latency`). */
export function createRagToolsServer(tools: RagTools, name: string, latencyMs?: number): McpServer {
  const server = new McpServer({ name, version: '1.0.0' })
  server.registerTool(
    'rag_discover_resources',
    {
      description: 'Lists the data sources this user may search, with their auth requirements',
      inputSchema: {
        username: username(),
        filters: z
          .object({
            types: z.array(z.string()).optional(),
            tags: z.array(z.string()).optional(),
            search: z.string().optional(),
            page: z.number().int().min(1).optional(),
            page_size: z.number().int().min(1).max(200).optional(),
          })
          .optional(),
      },
    },
    async (args) => {
      return withinLatency(
        () => toResult(tools.discover({ ...args, username: args.username ?? '' })),
        latencyMs,
      )
    },
  )
  server.registerTool(
    'rag_get_raw_results',
    {
      description: 'Searches the selected sources and returns ranked hits with snippets and links',
      inputSchema: {
        username: username(),
        query,
        sources,
        top_k: topK,
        filters: z
          .object({
            date_from: z.string().optional(),
            date_to: z.string().optional(),
            tags: z.array(z.string()).optional(),
            owners: z.array(z.string()).optional(),
          })
          .optional(),
        ranking: z
          .object({ rerank: z.boolean().optional(), model: z.string().optional() })
          .optional(),
        capability_token: capabilityToken,
      },
    },
    async (args) => {
      return withinLatency(
        () => toResult(tools.raw({ ...args, username: args.username ?? '' })),
        latencyMs,
      )
    },
  )
  server.registerTool(
    'rag_get_synthesized_results',
    {
      description:
        'Answers the query from the selected sources with numbered citations and an HTML report',
      inputSchema: {
        username: username(),
        query,
        sources,
        top_k: topK,
        synthesis_params: z
          .object({
            model: z.string().optional(),
            style: z.string().optional(),
            max_chars: z.number().int().min(1).optional(),
          })
          .optional(),
        provided_context: z.object({ hits: z.array(z.unknown()).optional() }).optional(),
        capability_token: capabilityToken,
      },
    },
    async (args) => {
      return withinLatency(
        () => toResult(tools.synthesize({ ...args, username: args.username ?? '' })),
        latencyMs,
      )
    },
  )
  return server
}

/** Serves one MCP session over stdin/stdout; resolves when stdin closes. */
export async function serveStdio(tools: RagTools, name: string): Promise<void> {
  const server = createRagToolsServer(tools, name)
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve
    process.stdin.once('end', resolve)
  })
  await server.connect(transport)
  await closed
  await server.close()
}

/**
 * Legacy HTTP+SSE transport: `GET /sse` opens a session stream whose first event names the
 * `POST /messages?sessionId=…` endpoint. One MCP server per session.
 */
export function sseHandler(tools: RagTools, name: string, latencyMs?: number): Handler {
  const sessions = new Map<string, SSEServerTransport>()
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res)
      sessions.set(transport.sessionId, transport)
      res.on('close', () => sessions.delete(transport.sessionId))
      await createRagToolsServer(tools, name, latencyMs).connect(transport)
      return
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = sessions.get(url.searchParams.get('sessionId') ?? '')
      if (!transport)
        return sendJson(res, 404, { error: 'Unknown or closed SSE session; reconnect to /sse' })
      await transport.handlePostMessage(req, res)
      return
    }
    sendJson(res, 404, { error: `Nothing at ${req.method} ${url.pathname}; open GET /sse` })
  }
}
