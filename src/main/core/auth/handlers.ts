import type { Handlers } from '../api/handlers'
import { ConsoleError } from '../../../shared/errors'

type AuthHandlers = Pick<Handlers, 'auth:status' | 'auth:login' | 'auth:cancel' | 'auth:logout'>

function notYet(): never {
  throw new ConsoleError({ code: 'unsupported', message: 'OAuth sign-in is not available yet' })
}

/** The `auth:*` channels. */
export function authHandlers(): AuthHandlers {
  return {
    'auth:status': () => [],
    'auth:login': notYet,
    'auth:cancel': notYet,
    'auth:logout': notYet,
  }
}
