/** `decodeURIComponent`, or the text as it is when it is not valid percent-encoding. */
export function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
