/**
 * Every credential of the demo servers, in one place. These are public demo values, documented
 * in the README; they protect nothing but make each family's auth path real.
 */

/** `Authorization: Bearer …` accepted by the rag-search server. */
export const RAG_SEARCH_API_KEY = 'demo-rag-search-0926e9e32500bbeeaab2e0332b81aafd'

/** RAGbox keys (`rbx_live_` + 64 hex), each bound to a vault and a privilege level. */
export const RAGBOX_KEYS = {
  /** Vault `acme`: standard and confidential documents. */
  acme: 'rbx_live_5d0877e92810778e54e365e738c0ce52215605234f0eb4b4a615c8f3b9a36502',
  /** Vault `acme` with elevated access: also privileged documents (`privilege_mode: true`). */
  acmeElevated: 'rbx_live_e6b8cdd52bb477b45e6ca768b11e5799e0c7af7108e92d36cf29262594377101',
  /** Vault `globex`: a different tenant that holds only the product docs. */
  globex: 'rbx_live_8783b5d886bde8bf0145129584e1720768322590b66eb22958afd77489d3ac97',
} as const

/** `capability_token` that opens the rag-tools-v1 `legal` source (for users in legal/admin). */
export const LEGAL_CAPABILITY_TOKEN = 'cap_legal_9de9c5c51a1333c0efe2d648'

/** A capability token that was valid once: answered with `token_expired`. */
export const EXPIRED_LEGAL_CAPABILITY_TOKEN = 'cap_legal_56940c8f19ded57803f06d93'

/** HMAC secret shared by the servers that sign citation links and the document host. */
export const DOC_SIGNING_SECRET = process.env.RAG_DEMO_DOC_SECRET ?? 'demo-doc-host-signing-secret'

/**
 * What the console stores in its keychain for the embedded default registry, as
 * `{ serverId: { secretName: value } }` (account `<serverId>/<secretName>`). `demo.js keys`
 * prints it as JSON.
 */
export const DEMO_SECRETS: Record<string, Record<string, string>> = {
  knowledgeSearch: { apiKey: RAG_SEARCH_API_KEY },
  documentVault: { apiKey: RAGBOX_KEYS.acme },
}

/** The OAuth demo's pre-registered confidential client (`client_secret_post`). */
export const OAUTH_DEMO_CLIENT = {
  clientId: 'rag-console-demo',
  clientSecret: 'demo-oauth-client-secret-5f1c0b7e9a2d4c68',
} as const
