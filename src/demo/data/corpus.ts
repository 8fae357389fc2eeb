import { engineering } from './engineering'
import { handbook } from './handbook'
import { itKb } from './it-kb'
import { legal } from './legal'
import { LINK_OVERRIDES, plantedDocs } from './planted'
import { product } from './product'
import { Rng, hashString } from './rng'
import { sales } from './sales'
import type { Chunk, Doc, Kind, SourceId, SourceTemplate, Topic, Vars } from './types'

export type { Chunk, Doc, SourceId } from './types'

/** Display names of the sources. */
export const SOURCE_NAMES: Record<SourceId, string> = {
  handbook: 'Employee Handbook',
  'it-kb': 'IT Knowledge Base',
  product: 'Acme Ledger Product Docs',
  legal: 'Legal Docs',
  sales: 'Sales Playbooks',
  engineering: 'Engineering Wiki',
}

const TEMPLATES: SourceTemplate[] = [handbook, itKb, product, legal, sales, engineering]

const CONTACTS: Record<SourceId, string> = {
  handbook: 'people@acme.example',
  'it-kb': 'it-help@acme.example',
  product: 'success@acme.example',
  legal: 'legal@acme.example',
  sales: 'sales-ops@acme.example',
  engineering: 'platform@acme.example',
}

/** Groups whose documents are readable company-wide (plain links, no signature). */
const BROAD_GROUPS = ['everyone', 'users', 'contractors']

const DAY_MS = 86_400_000
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z')
const EPOCH = Date.UTC(2022, 0, 3, 10)

function drawVars(rng: Rng, template: SourceTemplate): Vars {
  return {
    days: rng.int(5, 30),
    weeks: rng.int(2, 6),
    months: rng.pick([6, 12, 18, 24]),
    hours: rng.pick([24, 48, 72]),
    count: rng.int(2, 9),
    amount: rng.int(4, 40) * 50,
    percent: rng.int(5, 25),
    person: rng.pick(template.people),
    contact: CONTACTS[template.id],
    version: `${rng.int(3, 5)}.${rng.int(0, 12)}`,
  }
}

function fill(text: string, topic: Topic, vars: Vars): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => {
    if (key === 'system') return topic.system
    const value = (vars as unknown as Record<string, unknown>)[key]
    return value === undefined ? whole : String(value)
  })
}

/** Lower-case, dash-separated file stem. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

function generate(template: SourceTemplate, topic: Topic, kind: Kind): Doc {
  const id = `${template.prefix}-${topic.key}-${kind.key}`
  const seed = hashString(id)
  const rng = new Rng(seed)
  const vars = drawVars(rng, template)
  // Facts use values drawn per topic, so every document about a topic states the same numbers.
  const topicVars = drawVars(new Rng(hashString(`${template.prefix}-${topic.key}`)), template)
  const facts = topic.facts.map((fact) => fill(fact, topic, topicVars))
  const filled = { ...topic, facts }
  const title = kind.title(topic)
  const groups = kind.groups?.(topic) ?? topic.groups ?? template.groups
  const fileType = rng.pick(template.fileTypes)
  const created = EPOCH + rng.int(0, 700) * DAY_MS
  const updated = Math.min(created + rng.int(0, 500) * DAY_MS, Date.UTC(2025, 5, 30, 10))
  const override = LINK_OVERRIDES[id] ?? {}
  const broad = groups.some((group) => BROAD_GROUPS.includes(group))
  return {
    id,
    source: template.id,
    title,
    sections: kind.sections(filled, vars).map(([heading, text]) => ({ heading, text })),
    tags: [...topic.tags, ...(kind.tags ?? [])],
    author: topic.owner,
    owner: vars.person,
    groups,
    restricted: !broad,
    fileName: `${slug(title)}.${fileType}`,
    fileType,
    created: iso(created),
    updated: iso(updated),
    lang: 'en',
    link: override.link ?? 'auto',
    status: override.status ?? 'live',
    tier: broad && template.tier === 'privileged' ? 'standard' : template.tier,
    category: kind.category ?? template.category,
    // A few segments leave headline or summary out, so the console's derivation shows.
    omit: { headline: seed % 17 === 0, summary: seed % 13 === 0 },
  }
}

/** The whole demo corpus, with lookups. Identical in every process. */
export interface Corpus {
  docs: Doc[]
  byId: Map<string, Doc>
  chunks: Chunk[]
  chunkById: Map<string, Chunk>
  /** Chunks of one document, in order. */
  chunksOf(docId: string): Chunk[]
}

function buildCorpus(): Corpus {
  const docs: Doc[] = []
  for (const template of TEMPLATES) {
    for (const topic of template.topics) {
      for (const kind of template.kinds) docs.push(generate(template, topic, kind))
    }
  }
  docs.push(...plantedDocs())
  const chunks: Chunk[] = []
  const perDoc = new Map<string, Chunk[]>()
  for (const doc of docs) {
    const own = doc.sections.map((section, index) => ({
      id: `${doc.id}#${index}`,
      docId: doc.id,
      index,
      heading: section.heading,
      text: section.text,
    }))
    perDoc.set(doc.id, own)
    chunks.push(...own)
  }
  return {
    docs,
    byId: new Map(docs.map((doc) => [doc.id, doc])),
    chunks,
    chunkById: new Map(chunks.map((chunk) => [chunk.id, chunk])),
    chunksOf: (docId) => perDoc.get(docId) ?? [],
  }
}

let cached: Corpus | undefined

/** The corpus, built once per process. */
export function getCorpus(): Corpus {
  cached ??= buildCorpus()
  return cached
}

/** A document's full text: its sections, each under its heading. */
export function docText(doc: Doc): string {
  return doc.sections
    .map((section) => (section.heading ? `${section.heading}\n${section.text}` : section.text))
    .join('\n\n')
}

/** Documents of the given sources. */
export function docsOf(sources: readonly SourceId[]): Doc[] {
  return getCorpus().docs.filter((doc) => sources.includes(doc.source))
}
