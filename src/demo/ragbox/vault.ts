import { docText, getCorpus } from '../data/corpus'
import { hashString } from '../data/rng'
import type { Doc, SourceId } from '../data/types'
import { RAGBOX_KEYS } from '../keys'

/** What an API key opens: a tenant's vault, with or without elevated (privileged) access. */
export interface KeyGrant {
  vault: 'acme' | 'globex'
  elevated: boolean
}

/** RAGbox keys are `rbx_live_` followed by 64 hex digits. */
export const KEY_FORMAT = /^rbx_live_[0-9a-f]{64}$/

const GRANTS = new Map<string, KeyGrant>([
  [RAGBOX_KEYS.acme, { vault: 'acme', elevated: false }],
  [RAGBOX_KEYS.acmeElevated, { vault: 'acme', elevated: true }],
  [RAGBOX_KEYS.globex, { vault: 'globex', elevated: false }],
])

const VAULT_SOURCES: Record<KeyGrant['vault'], SourceId[]> = {
  acme: ['handbook', 'sales', 'legal'],
  globex: ['product'],
}

/** The grant of a well-formed, known key; undefined otherwise. */
export function grantFor(key: string | undefined): KeyGrant | undefined {
  return key && KEY_FORMAT.test(key) ? GRANTS.get(key) : undefined
}

/** RAGbox-style id (`doc_` + 8 hex) of a corpus document. */
export function vaultId(doc: Doc): string {
  return `doc_${hashString(doc.id).toString(16).padStart(8, '0')}`
}

/** Documents of a vault, in corpus order. */
export function vaultDocs(grant: KeyGrant): Doc[] {
  const sources = VAULT_SOURCES[grant.vault]
  return getCorpus().docs.filter((doc) => sources.includes(doc.source))
}

/** Whether the grant may see a document outside privilege mode. */
export function visibleTo(doc: Doc, grant: KeyGrant): boolean {
  return doc.tier !== 'privileged' || grant.elevated
}

/** Metadata as `get_document` and `list_documents` report it. */
export function docMeta(doc: Doc): Record<string, unknown> {
  const text = docText(doc)
  const words = text.split(/\s+/).length
  return {
    id: vaultId(doc),
    title: doc.title,
    filename: doc.fileName,
    size_bytes: Buffer.byteLength(text) * 3 + 18_000,
    pages: Math.max(1, Math.ceil(words / 400)),
    chunks: doc.sections.length,
    security_tier: doc.tier,
    indexed: true,
    uploaded_at: doc.updated,
  }
}
