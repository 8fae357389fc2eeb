import type { ServerConnection } from './connection'
import type { ServerSession } from './types'

/**
 * The {@link ServerSession} services and dialects hold for one server: it reads the live tool
 * list and server info, and keeps working across reconnects of the same configuration.
 */
export function sessionOf(connection: ServerConnection): ServerSession {
  return {
    serverId: connection.serverId,
    config: connection.config,
    get tools() {
      return connection.tools
    },
    get serverInfo() {
      return connection.serverInfo
    },
    callTool: (name, args, options) => connection.callTool(name, args, options),
    request: (method, params, options) => connection.request(method, params, options),
  }
}
