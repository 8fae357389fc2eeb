/**
 * The user every operation runs as ("view as"). Servers receive `userId`, `sessionTags` and
 * `humanUid` (as headers or injected arguments, per dialect); `groups` only decide what the
 * console shows, servers still enforce their own access.
 */
export interface ActingUser {
  userId: string
  sessionTags: string[]
  humanUid?: string | undefined
  groups: string[]
}

/** A saved acting-user profile (kept in the app's settings, not in rag-mcp.json). */
export interface Profile extends ActingUser {
  id: string
  name: string
}
