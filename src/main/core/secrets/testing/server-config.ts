import type { ServerConfig } from '#shared/config/schema'

/** An effective server config for tests, with only the fields a test cares about set. */
export function serverConfig(id: string, fields: Partial<ServerConfig> = {}): ServerConfig {
  return {
    id,
    transport: 'http',
    url: 'http://127.0.0.1:9/mcp',
    args: [],
    env: {},
    headers: {},
    groups: [],
    isExclusive: false,
    enabled: true,
    dialect: 'auto',
    timeoutMs: 1000,
    ui: {},
    dataSources: [],
    origin: 'test',
    ...fields,
  }
}
