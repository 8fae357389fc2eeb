import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  StdioClientTransport,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { ConsoleError } from '#shared/errors'
import type { DialectSetting } from '#shared/config/schema'
import type { CallOptions, RawToolResult, ServerSession } from '#core/pool/types'
import { testConfig } from './recording-session'

/**
 * A thin {@link ServerSession} over a real MCP SDK client and stdio child process, for testing
 * adapters against servers this project did not write until the connection pool lands (then the
 * pool's sessions replace it). Errors the server sends become `server_error` with `origin:
 * 'server'` and `details.code`, as the pool reports them.
 */
export interface StdioSession extends ServerSession {
  readonly client: Client
  close(): Promise<void>
}

export async function connectStdio(init: {
  serverId: string
  command: string
  args: string[]
  env?: Record<string, string>
  dialect?: DialectSetting
}): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: init.command,
    args: init.args,
    env: { ...getDefaultEnvironment(), ...init.env },
    stderr: 'pipe',
  })
  const client = new Client({ name: 'rag-console-test', version: '0.0.0' })
  await client.connect(transport)
  const { tools } = await client.listTools()
  const fail = (error: unknown): never => {
    if (error instanceof McpError) {
      throw new ConsoleError({
        code: 'server_error',
        origin: 'server',
        server: init.serverId,
        message: error.message,
        details: { code: error.code },
      })
    }
    throw error
  }
  const requestOptions = (options: CallOptions) => ({
    ...(options.signal ? { signal: options.signal } : {}),
    timeout: options.timeoutMs ?? 10_000,
  })
  return {
    serverId: init.serverId,
    config: testConfig(init.serverId, { dialect: init.dialect ?? 'auto' }),
    tools: tools.map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema,
    })),
    client,
    async callTool(name, args, options) {
      try {
        return (await client.callTool(
          { name, arguments: args },
          undefined,
          requestOptions(options),
        )) as RawToolResult
      } catch (error) {
        return fail(error)
      }
    },
    async request(method, params, options) {
      try {
        return await client.request(
          { method, ...(params ? { params } : {}) },
          z.any(),
          requestOptions(options),
        )
      } catch (error) {
        return fail(error)
      }
    },
    async close() {
      await client.close()
    },
  }
}
