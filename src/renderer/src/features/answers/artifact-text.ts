/** Decodes a base64 body as UTF-8 text; undefined when it is not valid base64. */
export function decodeBase64Text(b64: string): string | undefined {
  try {
    const binary = atob(b64)
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes)
  } catch {
    return undefined
  }
}

/** Bytes of a base64 body without decoding it. */
export function base64Bytes(b64: string): number {
  const clean = b64.replace(/\s/g, '')
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding)
}

/** text/html (with or without parameters) is only ever shown in a sandboxed frame. */
export const isHtml = (mime: string): boolean => /^text\/html\b/i.test(mime.trim())

/** Types shown as plain text in the page. */
export const isText = (mime: string): boolean =>
  /^(text\/(?!html)|application\/(json|xml|x-ndjson)\b)/i.test(mime.trim())
