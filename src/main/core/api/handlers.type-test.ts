// Compile-time checks, run by `npm run typecheck`: the handler map must be exhaustive.
import type { Handlers } from './handlers'

// @ts-expect-error a handler map without every channel does not compile
export const incomplete: Handlers = {
  'app:info': () => {
    throw new Error('unused')
  },
}
