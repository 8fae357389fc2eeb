import { z } from 'zod'
import type { DialectId, ServerHealth, ServerInfo, ServerStatus, ToolInfo } from '../model/server'

/** Where a line of a server's log came from. */
export type PoolLogStream =
  /** stderr of a stdio server. */
  | 'stderr'
  /** Non-JSON lines a stdio server wrote to stdout. */
  | 'stdout'
  /** Output of a locally launched HTTP/SSE server (`launch` in rag-mcp.json). */
  | 'launch'
  /** What the console itself noticed: reconnects, tolerated protocol quirks, crashes. */
  | 'pool'

export interface PoolLogLine {
  /** Epoch ms. */
  at: number
  stream: PoolLogStream
  text: string
}

export interface PoolServerStatus {
  server: string
  status: ServerStatus
}

export interface PoolServerTools {
  server: string
  tools: ToolInfo[]
  serverInfo?: ServerInfo
  /** The dialect of a server tried in the workbench (registry servers: see `servers:list`). */
  dialect?: DialectId | null
}

const serverId = z.string().min(1).max(256)

/** Pool-level channels: live connection state, health, logs and tools of each server. */
export const serversRequests = {
  /** Connection state of every server in the pool. */
  'pool:status': z.undefined(),
  /** Health and latency of one server, or of all when `server` is omitted. */
  'pool:health': z.object({ server: serverId.optional() }).optional(),
  /** Drops the server's connection (and launched process) and connects again now. */
  'pool:reconnect': z.object({ server: serverId }),
  /** The last lines of a server's stderr / launch output / pool notes, oldest first. */
  'pool:log': z.object({
    server: serverId,
    limit: z.number().int().positive().max(5000).optional(),
  }),
  /** Tools the server listed at connect time (`refresh` lists them again). */
  'pool:tools': z.object({ server: serverId, refresh: z.boolean().optional() }),
}

export interface ServersResults {
  'pool:status': PoolServerStatus[]
  'pool:health': ServerHealth[]
  'pool:reconnect': PoolServerStatus
  'pool:log': { server: string; lines: PoolLogLine[] }
  'pool:tools': PoolServerTools
}

export interface ServersEvents {
  /** A server's connection state changed. */
  'server:status': PoolServerStatus
}
