/**
 * Who is signed in, for display: the id token's email, name or subject when there is one (read,
 * not verified: it names, it does not authorise), else the client id and acting profile.
 */
export function accountOf(
  idToken: string | undefined,
  clientId: string | undefined,
  profileId: string | undefined,
): string | undefined {
  const claims = idTokenClaims(idToken)
  for (const claim of ['email', 'name', 'preferred_username', 'sub']) {
    const value = claims?.[claim]
    if (typeof value === 'string' && value.trim()) return value.trim().slice(0, 200)
  }
  if (!clientId) return profileId
  return profileId ? `${clientId} (${profileId})` : clientId
}

function idTokenClaims(token: string | undefined): Record<string, unknown> | undefined {
  const payload = token?.split('.')[1]
  if (!payload) return undefined
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    return typeof claims === 'object' && claims !== null
      ? (claims as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
