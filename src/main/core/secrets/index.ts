export {
  KeychainStore,
  KEYCHAIN_SERVICE,
  keychainAccount,
  openOsKeychainEntry,
} from './keychain-store'
export type { KeychainEntry, KeychainStoreOptions, OpenKeychainEntry } from './keychain-store'
export { classifyKeychainError, keychainError } from './keychain-errors'
export { SecretRedactor, createRedactor, MIN_SECRET_LENGTH, REDACTED } from './redactor'
export { configRefs, formatRef, parseRefs, substituteRefs } from './refs'
export { createSecretResolver } from './resolver'
export { SecretsService } from './secrets-service'
export type { SecretChangeListener, SecretsServiceDeps } from './secrets-service'
export { SessionTokens } from './session-tokens'
export type { Redactor, ResolvedConnection, SecretRef, SecretResolver } from './types'
