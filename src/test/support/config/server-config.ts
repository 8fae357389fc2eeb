// Test and benchmark helper: complete effective server configs with test defaults.
import type { ServerConfig } from '#shared/config/schema'
import { SAFETY_NET_MS } from '../process/limits'

/**
 * An effective server config with only the fields a test cares about set: an HTTP server at a
 * placeholder URL (nothing listens on port 9) and a short `timeoutMs`.
 */
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

/**
 * The config of a server a test or benchmark really starts: stdio unless `fields` say otherwise,
 * no placeholder URL, and a `timeoutMs` that is a safety net (a test of a timeout sets its own).
 */
export function liveServerConfig(fields: Partial<ServerConfig> & { id: string }): ServerConfig {
  const { url: _placeholder, ...defaults } = serverConfig(fields.id, {
    transport: 'stdio',
    timeoutMs: SAFETY_NET_MS,
  })
  return { ...defaults, ...fields }
}
