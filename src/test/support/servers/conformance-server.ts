import { join } from 'node:path'
import { repoRoot } from '../process/built'
import { startChild } from '../process/start-child'

/** A scenario server of the official MCP conformance suite, running on its own. */
export interface ConformanceServer {
  /** Its MCP endpoint (`http://localhost:PORT/mcp`). */
  url: string
  /** What it printed so far: every request it got, with its query, when `--verbose`. */
  lines: string[]
  stop(): Promise<void>
}

/**
 * Starts a client scenario of `@modelcontextprotocol/conformance` in its interactive mode (no
 * `--command`): an OAuth-protected MCP server and authorization server that no one here wrote,
 * serving until stopped. The auth scenarios approve every authorization at once, register any
 * client, and issue access tokens without refresh tokens.
 */
export async function startConformanceServer(
  scenario = 'auth/metadata-default',
): Promise<ConformanceServer> {
  const bin = join(repoRoot, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')
  const child = await startChild([bin, 'client', '--scenario', scenario, '--verbose'], (lines) =>
    lines.map((line) => /^Server URL: (\S+)/.exec(line)?.[1]).find(Boolean),
  )
  return { url: child.ready, lines: child.lines, stop: child.stop }
}
