import { ConsoleError, type ErrorInfo } from '../../../shared/errors'

/** What a sign-in-required error says about the sign-in the server asked for. */
export interface SignInRequest {
  /** Scope the server asked for (WWW-Authenticate), e.g. a step-up. */
  scope?: string
  /** The protected-resource metadata URL from the challenge. */
  resourceMetadataUrl?: string
}

/** The server uses OAuth and no usable token is at hand: only a person signing in helps. */
export function signInRequiredError(server: string, request: SignInRequest = {}): ConsoleError {
  const why = request.scope ? ` with scope "${request.scope}"` : ''
  return new ConsoleError({
    code: 'action_required',
    origin: 'local',
    server,
    message: `server ${server} needs you to sign in${why} (OAuth): use Sign in on its card in Servers, or run \`rag-console auth login --server ${server}\``,
    details: { signInRequired: true, ...request },
  })
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
