import type { ServerSession } from './types'

/**
 * The {@link ServerSession} services and dialects hold for one server: it reads the live tool
 * list and server info, and keeps working across reconnects of the same configuration. It
 * forwards to the connection (which has all of these and more) and shows nothing else of it.
 */
export function sessionOf(connection: ServerSession): ServerSession {
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
