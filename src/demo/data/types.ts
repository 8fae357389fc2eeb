/** The corpus's data sources (each family serves a slice of them). */
export type SourceId = 'handbook' | 'it-kb' | 'product' | 'legal' | 'sales' | 'engineering'

/**
 * How a document's citation link behaves on the document host:
 * `auto` plain link for internal documents, signed link for restricted ones;
 * `portal` a host page that redirects to a login page; `throttled` answers 429; `failing`
 * answers 500; `unreachable` points at a closed port; `invalid` is not an http(s) URL;
 * `stale` a signed link that expired long ago; `plain` an unsigned link to a restricted
 * document (403).
 */
export type LinkKind =
  'auto' | 'portal' | 'throttled' | 'failing' | 'unreachable' | 'invalid' | 'stale' | 'plain'

/** `deleted` answers 410 on the document host, `moved` answers 404. Both stay in the index. */
export type DocStatus = 'live' | 'deleted' | 'moved'

/** RAGbox privilege tiers. */
export type SecurityTier = 'standard' | 'confidential' | 'privileged'

export interface Section {
  heading: string
  text: string
}

export interface Doc {
  /** Stable, readable id, e.g. `hb-pto-policy`. */
  id: string
  source: SourceId
  /** Empty for the planted untitled document. */
  title: string
  sections: Section[]
  tags: string[]
  /** Team that owns the document. */
  author: string
  /** Person who last edited it. */
  owner: string
  /** Groups that may read it (`everyone` = anyone, even anonymous). */
  groups: string[]
  /** Restricted documents need a signed link on the document host. */
  restricted: boolean
  fileName: string
  fileType: string
  created: string
  updated: string
  lang: string
  link: LinkKind
  status: DocStatus
  tier: SecurityTier
  /** VTEX category (Product, Business, Technical, FAQ). */
  category: string
  /** rag-search omits these segment fields for this document (so the console derives them). */
  omit: { headline?: boolean; summary?: boolean; url?: boolean }
}

/** One retrievable passage: one section of a document. */
export interface Chunk {
  /** `<docId>#<index>`. */
  id: string
  docId: string
  index: number
  heading: string
  text: string
}

/** Values a template may use; drawn per document from a seeded generator. */
export interface Vars {
  days: number
  weeks: number
  months: number
  hours: number
  count: number
  amount: number
  percent: number
  person: string
  contact: string
  version: string
}

/** One subject a source writes about. `facts` may contain `{var}` placeholders. */
export interface Topic {
  key: string
  title: string
  /** Lower-case name used inside sentences. */
  name: string
  owner: string
  system: string
  tags: string[]
  facts: string[]
  groups?: string[]
}

/** One kind of document a source writes about each topic. */
export interface Kind {
  key: string
  title: (t: Topic) => string
  sections: (t: Topic, v: Vars) => Array<[heading: string, text: string]>
  tags?: string[]
  groups?: (t: Topic) => string[] | undefined
  category?: string
}

/** The templates of one source. */
export interface SourceTemplate {
  id: SourceId
  prefix: string
  people: string[]
  fileTypes: string[]
  groups: string[]
  restricted: boolean
  tier: SecurityTier
  category: string
  topics: Topic[]
  kinds: Kind[]
}
