import { ConsoleError } from '#shared/errors'

/** Shows an authorization URL to the person who signs in. */
export type Opener = (url: URL) => Promise<void> | void

/**
 * `RAG_CONSOLE_OAUTH_OPENER=fetch`, for tests and CI only: the console GETs the authorization
 * URL itself and follows its redirects, as a browser of a person who approves at once would,
 * ending at the console's own loopback redirect.
 */
export async function fetchOpener(
  url: URL,
  redirectUrl: string,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(url, { redirect: 'follow', signal })
  await response.body?.cancel().catch(() => {})
  if (!response.url.startsWith(redirectUrl)) {
    const where = new URL(response.url)
    throw new ConsoleError({
      code: 'unauthorized',
      origin: 'server',
      message: `the authorization page did not send the browser back to the console (HTTP ${response.status} at ${where.origin}${where.pathname}); with RAG_CONSOLE_OAUTH_OPENER=fetch it must approve without a person`,
    })
  }
}
