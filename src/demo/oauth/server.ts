import express, { type Express, type RequestHandler } from 'express'
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js'
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
  createOAuthMetadata,
} from '@modelcontextprotocol/sdk/server/auth/router.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { Handler } from '../http/listen'
import { OAUTH_PATHS } from './paths'
import { createRagToolsServer, sseHandler } from '../rag-tools/server'
import type { RagTools } from '../rag-tools/tools'
import { BASE_SCOPE, DemoOAuthProvider, type DemoOAuthOptions } from './provider'

export interface OAuthServerOptions extends DemoOAuthOptions {
  tools: RagTools
  name: string
  /** Step-up: `tools/call` needs this scope on top of the base scope (403 insufficient_scope). */
  requireScope?: string | undefined
  /**
   * Refuse an authorization request whose `redirect_uri` is not one of the client's registered
   * URIs exactly, as authorization servers that ignore RFC 8252's any-port rule for loopback
   * redirects do (the SDK's own check allows any port).
   */
  exactRedirectUris?: boolean | undefined
}

function build(origin: string, options: OAuthServerOptions): Express {
  const provider = new DemoOAuthProvider(options)
  const issuerUrl = new URL(origin)
  const scopes = [BASE_SCOPE, ...(options.requireScope ? [options.requireScope] : [])]
  const resource = (path: string): URL => new URL(path, origin)
  const app = express()
  app.disable('x-powered-by')
  if (options.exactRedirectUris) {
    app.all('/authorize', express.urlencoded({ extended: false }), (req, res, next) => {
      const params = { ...req.query, ...(req.body as Record<string, unknown> | undefined) }
      const { client_id: clientId, redirect_uri: redirectUri } = params
      const registered = typeof clientId === 'string' ? provider.redirectUris(clientId) : undefined
      if (registered && typeof redirectUri === 'string' && !registered.includes(redirectUri)) {
        res.status(400).json({
          error: 'invalid_request',
          error_description: 'Unregistered redirect_uri',
        })
        return
      }
      next()
    })
  }
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl,
      scopesSupported: scopes,
      resourceName: `${options.name} (OAuth demo)`,
      resourceServerUrl: resource(OAUTH_PATHS.http),
      authorizationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
    }),
  )
  app.use(
    mcpAuthMetadataRouter({
      oauthMetadata: createOAuthMetadata({ provider, issuerUrl, scopesSupported: scopes }),
      resourceServerUrl: resource(OAUTH_PATHS.sse),
      scopesSupported: scopes,
    }),
  )
  app.post('/consent', express.urlencoded({ extended: false }), (req, res) => {
    const { consent, user } = req.body as Record<string, unknown>
    const target =
      typeof consent === 'string' && typeof user === 'string' && user.trim()
        ? provider.consent(consent, user.trim())
        : undefined
    if (!target) return void res.status(400).type('text').send('Unknown or used consent request')
    res.redirect(302, target)
  })
  const bearer = (path: string, required: string[]): RequestHandler =>
    requireBearerAuth({
      verifier: provider,
      requiredScopes: required,
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource(path)),
    })
  const httpBearer = bearer(OAUTH_PATHS.http, [BASE_SCOPE])
  const stepUp = bearer(OAUTH_PATHS.http, scopes)
  app.post(OAUTH_PATHS.http, express.json({ limit: '1mb' }), (req, res, next) => {
    const body = req.body as { method?: unknown } | undefined
    const guard = options.requireScope && body?.method === 'tools/call' ? stepUp : httpBearer
    void guard(req, res, next)
  })
  app.post(OAUTH_PATHS.http, async (req, res) => {
    // No session id generator: a stateless transport per request.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true })
    const server = createRagToolsServer(options.tools, options.name)
    res.on('close', () => void server.close())
    await server.connect(transport)
    await transport.handleRequest(req, res, req.body)
  })
  app.all(OAUTH_PATHS.http, (_req, res) => void res.status(405).set('allow', 'POST').end())
  const sse = sseHandler(options.tools, options.name)
  const sseBearer = bearer(OAUTH_PATHS.sse, [BASE_SCOPE])
  // `app.use` strips the mount path; the SSE handler routes on the full one.
  app.use(['/sse', '/messages'], sseBearer, (req, res) => {
    req.url = req.originalUrl
    void sse(req, res)
  })
  return app
}

/**
 * The rag-tools-v1 family behind OAuth 2.1 (MCP authorization spec), built from the SDK's
 * server-side helpers: protected-resource and authorization-server metadata, dynamic client
 * registration, authorization code + PKCE, refresh, and bearer checks that answer 401 with
 * `WWW-Authenticate` (403 `insufficient_scope` for step-up). Streamable HTTP at `/mcp`, legacy
 * SSE at `/sse`. The app is built on the first request, once the bound port is known.
 */
export function oauthHandler(options: OAuthServerOptions): Handler {
  let app: Express | undefined
  return (req, res) => {
    app ??= build(`http://127.0.0.1:${req.socket.localPort}`, options)
    app(req, res)
  }
}
