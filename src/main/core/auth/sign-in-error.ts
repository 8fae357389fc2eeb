import { ConsoleError, type ErrorInfo } from '#shared/errors'

/** Where servers given on the command line come from: their tokens stay in memory. */
export const AD_HOC_ORIGIN = 'command line'
/** Where servers tried in the Workbench come from: their tokens stay in memory too. */
export const TRIED_ORIGIN = 'workbench'

/** What a sign-in-required error says about the sign-in the server asked for. */
export interface SignInRequest {
  /** Scope the server asked for (WWW-Authenticate), e.g. a step-up. */
  scope?: string
  /** The protected-resource metadata URL from the challenge. */
  resourceMetadataUrl?: string
}

/** How a sign-in-required error is worded. */
export interface SignInWording {
  /** Where the server's entry comes from (`ServerConfig.origin`): the advice depends on it. */
  origin?: string
  /** The authorization server refused to renew an earlier sign-in: sign in again. */
  again?: boolean
}

/**
 * The server uses OAuth and no usable token is at hand: only a person signing in helps. A
 * server given on the command line (`--url`) has no registry id that `auth login` could take,
 * and a server tried in the Workbench signs in there, so their advice differs.
 */
export function signInRequiredError(
  server: string,
  request: SignInRequest = {},
  { origin, again = false }: SignInWording = {},
): ConsoleError {
  const why = request.scope ? ` with scope "${request.scope}"` : ''
  const how =
    origin === AD_HOC_ORIGIN
      ? 'run the command at a terminal without --json to sign in, or add it to rag-mcp.json and run `rag-console auth login --server ID`'
      : origin === TRIED_ORIGIN
        ? 'use Sign in where it is tried in the Workbench'
        : `use Sign in on its card in Servers, or run \`rag-console auth login --server ${server}\``
  const refused = again ? ', as its authorization server refused to renew the last sign-in' : ''
  return new ConsoleError({
    code: 'action_required',
    origin: 'local',
    server,
    message: `${serverLabel(server, origin)} needs you to sign in${again ? ' again' : ''}${why} (OAuth)${refused}: ${how}`,
    details: { signInRequired: true, ...request },
  })
}

/** How messages name a server: by its id, or as the one `--url` gave (`origin`: its entry's). */
export function serverLabel(server: string, origin?: string): string {
  return origin === AD_HOC_ORIGIN ? 'the server given by --url' : `server ${server}`
}

/** Whether an error (or its info) is a {@link signInRequiredError}. */
export function isSignInRequired(error: ErrorInfo | ConsoleError | undefined): boolean {
  return error?.details?.signInRequired === true
}

/** The sign-in request a {@link signInRequiredError} carries. */
export function signInRequestOf(error: ErrorInfo | ConsoleError): SignInRequest {
  const { scope, resourceMetadataUrl } = error.details ?? {}
  return {
    ...(typeof scope === 'string' ? { scope } : {}),
    ...(typeof resourceMetadataUrl === 'string' ? { resourceMetadataUrl } : {}),
  }
}

/** `WWW-Authenticate: Bearer …` parameters the console reads. */
export function challengeParams(header: string | undefined): SignInRequest & { error?: string } {
  const value = (name: string): string | undefined =>
    header ? new RegExp(`${name}="([^"]*)"`, 'i').exec(header)?.[1] : undefined
  const scope = value('scope')
  const resourceMetadataUrl = value('resource_metadata')
  const error = value('error')
  return {
    ...(scope ? { scope } : {}),
    ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
    ...(error ? { error } : {}),
  }
}

/**
 * The sign-in a refusal's `WWW-Authenticate` asks for when it is a step-up (`insufficient_scope`:
 * the token is good, its scope too small), else undefined.
 */
export function stepUpOf(header: string | undefined): SignInRequest | undefined {
  const { error, ...request } = challengeParams(header)
  return error === 'insufficient_scope' ? request : undefined
}
