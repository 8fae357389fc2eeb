/**
 * The renderer's Content-Security-Policy, shared by the Electron window and the browser host.
 * No remote content: scripts, styles, fonts and images come from the app itself only.
 */
export function contentSecurityPolicy(options: { connectSrc?: string[] } = {}): string {
  const connect = ["'self'", ...(options.connectSrc ?? [])].join(' ')
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** Only http(s) URLs may ever be opened outside the app. */
export function isExternalHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}
