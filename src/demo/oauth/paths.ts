/** Paths of the protected MCP endpoints (apart from server.ts, which loads Express). */
export const OAUTH_PATHS = { http: '/mcp', sse: '/sse' } as const
