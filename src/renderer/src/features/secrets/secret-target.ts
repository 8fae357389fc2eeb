import type { SecretKind } from '#shared/ipc/secrets'

/** A secret the user is about to set, replace or delete. */
export interface SecretTarget {
  server: string
  name: string
  kind: Exclude<SecretKind, 'env'>
  /** A value exists already (replace instead of set). */
  present: boolean
}
