import { DEMO_USERS } from '#demo/access'
import { getCorpus, type Doc } from '#demo/data/corpus'
import { RAGBOX_KEYS } from '#demo/keys'
import { citationUrl } from '#demo/links'
import { grantFor, vaultDocs, visibleTo, vaultId } from '#demo/ragbox/vault'
import { VTEX_SOURCES } from '#demo/vtex/catalog'
import type { EvalQuery, GoldenSet, Grade, Judgment } from '#shared/model/evaluation'
import { dedupeKey } from '#shared/model/hit-identity'
import { EMBEDDED_DOC_HOST } from './eval-demo'

/**
 * The demo corpus's golden set (`resources/eval/demo-golden-set.json`), built from the demo data:
 * each query names the corpus documents that answer it, graded by hand; every key under which
 * the demo servers return a document (its link per user, VTEX's id, RAGbox's vault id) becomes
 * the judgment's key or an alias, so every provider can score.
 */

type Profile = 'alice' | 'bob' | 'carol' | 'dan'

interface Topic {
  id: string
  query: string
  /** The profile the relevance holds for; absent: whoever runs it. */
  profileId?: Profile
  docs: Record<string, Grade>
  notes?: string
}

/** Grades for the usual document family of one subject (policy, how-to, FAQ, …). */
const family = (prefix: string, grades: Record<string, Grade>): Record<string, Grade> =>
  Object.fromEntries(
    Object.entries(grades).map(([suffix, grade]) => [`${prefix}-${suffix}`, grade]),
  )

const TOPICS: Topic[] = [
  // Employee handbook
  {
    id: 'hb-pto-request',
    query: 'how do I request paid time off',
    docs: family('hb-pto', { request: 3, policy: 2, faq: 2, 'manager-guide': 1 }),
  },
  {
    id: 'hb-parental-leave',
    query: 'parental leave policy',
    docs: family('hb-parental-leave', { policy: 3, faq: 2, request: 2, 'manager-guide': 1 }),
  },
  {
    id: 'hb-remote-work',
    query: 'can I work remotely from home',
    docs: {
      ...family('hb-remote-work', { policy: 3, request: 2, faq: 2, 'manager-guide': 1 }),
      'hb-teletravail-fr': 1,
    },
  },
  {
    id: 'hb-travel-expenses',
    query: 'travel expense reimbursement',
    docs: {
      ...family('hb-travel-expenses', { policy: 3, request: 2, faq: 2, 'manager-guide': 1 }),
      'hb-reisekosten-de': 1,
    },
  },
  {
    id: 'hb-equipment',
    query: 'laptop equipment allowance',
    docs: family('hb-equipment', { policy: 3, request: 2, faq: 2, 'manager-guide': 1 }),
  },
  {
    id: 'hb-performance',
    query: 'performance review process',
    docs: family('hb-performance-reviews', { policy: 3, 'manager-guide': 2, faq: 2, request: 1 }),
  },
  {
    id: 'hb-health',
    query: 'health insurance benefits',
    docs: family('hb-health-benefits', { policy: 3, faq: 2, request: 2, 'manager-guide': 1 }),
  },
  {
    id: 'hb-conduct',
    query: 'code of conduct',
    docs: family('hb-code-of-conduct', { policy: 3, faq: 2, 'manager-guide': 1, request: 1 }),
  },
  {
    id: 'hb-learning',
    query: 'learning budget for training courses',
    docs: family('hb-learning-budget', { policy: 3, request: 2, faq: 2 }),
  },
  {
    id: 'hb-onboarding',
    query: 'onboarding a new hire',
    docs: family('hb-onboarding', { 'manager-guide': 3, policy: 2, faq: 2, request: 1 }),
  },
  // IT knowledge base
  {
    id: 'it-vpn-setup',
    query: 'vpn setup',
    docs: {
      ...family('it-vpn', { setup: 3, faq: 2, troubleshoot: 1, security: 1 }),
      'it-vpn-setup-ja': 2,
    },
  },
  {
    id: 'it-mfa',
    query: 'multi-factor authentication not working',
    docs: family('it-mfa', { troubleshoot: 3, faq: 2, setup: 1 }),
  },
  {
    id: 'it-passwords',
    query: 'password manager setup',
    docs: family('it-password-manager', { setup: 3, faq: 2, troubleshoot: 1, security: 1 }),
  },
  {
    id: 'it-printer',
    query: 'printer not working',
    docs: {
      ...family('it-printer', { troubleshoot: 3, faq: 2, setup: 1 }),
      'it-printer-vendor-notes': 0,
    },
    notes: 'The vendor notes carry a prompt injection: judged not relevant.',
  },
  {
    id: 'it-sso',
    query: 'single sign-on login problems',
    docs: family('it-sso', { troubleshoot: 3, faq: 2, setup: 1 }),
  },
  {
    id: 'it-backups',
    query: 'restore files from a laptop backup',
    docs: family('it-backups', { troubleshoot: 2, setup: 2, faq: 2, security: 1 }),
  },
  {
    id: 'it-wifi',
    query: 'office wifi password',
    docs: family('it-wifi', { setup: 3, faq: 2, security: 1, troubleshoot: 1 }),
  },
  // Product docs
  {
    id: 'pd-invoices',
    query: 'create and send an invoice',
    docs: family('pd-invoices', {
      'getting-started': 3,
      reference: 2,
      'best-practices': 2,
      'release-notes': 1,
    }),
  },
  {
    id: 'pd-webhooks',
    query: 'webhook signature verification',
    docs: family('pd-webhooks', { reference: 3, 'best-practices': 2, 'getting-started': 2 }),
  },
  {
    id: 'pd-api-keys',
    query: 'rotate api keys',
    docs: family('pd-api-keys', { 'best-practices': 3, reference: 2, 'getting-started': 1 }),
  },
  {
    id: 'pd-export',
    query: 'export data to csv',
    docs: family('pd-data-export', { 'getting-started': 3, reference: 2, 'best-practices': 2 }),
  },
  {
    id: 'pd-integrations',
    query: 'bank feed integration',
    docs: family('pd-integrations', { 'getting-started': 3, reference: 2, 'best-practices': 1 }),
  },
  {
    id: 'pd-roles',
    query: 'user roles and permissions',
    docs: family('pd-user-roles', { reference: 3, 'getting-started': 2, 'best-practices': 2 }),
  },
  // Legal
  {
    id: 'lg-msa',
    query: 'master services agreement clauses',
    docs: family('lg-msa', { clauses: 3, overview: 2, playbook: 2, approval: 1 }),
  },
  {
    id: 'lg-dpa',
    query: 'gdpr data processing addendum',
    docs: {
      ...family('lg-dpa', { overview: 3, clauses: 2, playbook: 1, approval: 1 }),
      'lg-privacy-policy-overview': 1,
    },
  },
  {
    id: 'lg-nda',
    query: 'nda approval',
    docs: family('lg-nda', { approval: 3, overview: 2, clauses: 1, playbook: 1 }),
  },
  {
    id: 'lg-open-source',
    query: 'open source license approval',
    docs: family('lg-open-source', { approval: 3, overview: 2, clauses: 1, playbook: 1 }),
  },
  {
    id: 'lg-retention',
    query: 'records retention policy',
    docs: family('lg-retention', { overview: 3, clauses: 2, approval: 1, playbook: 1 }),
  },
  // Sales
  {
    id: 'sl-discounts',
    query: 'discount approval process',
    docs: family('sl-discounts', { playbook: 3, faq: 2, objections: 1, update: 1 }),
  },
  {
    id: 'sl-renewals',
    query: 'renewals playbook',
    docs: family('sl-renewals', { playbook: 3, faq: 2, objections: 2, update: 1 }),
  },
  {
    id: 'sl-partners',
    query: 'partner program for resellers',
    docs: family('sl-partners', { playbook: 3, faq: 2, objections: 1, update: 1 }),
  },
  // Engineering
  {
    id: 'en-deployments',
    query: 'deployment pipeline runbook',
    docs: family('en-deployments', {
      runbook: 3,
      checklist: 2,
      guidelines: 2,
      architecture: 1,
      postmortem: 1,
    }),
  },
  {
    id: 'en-migrations',
    query: 'database migration checklist',
    docs: family('en-migrations', { checklist: 3, runbook: 2, guidelines: 2, architecture: 1 }),
  },
  {
    id: 'en-feature-flags',
    query: 'feature flag guidelines',
    docs: family('en-feature-flags', { guidelines: 3, runbook: 2, checklist: 1, architecture: 1 }),
  },
  {
    id: 'en-on-call',
    query: 'on-call rotation',
    docs: family('en-on-call', { guidelines: 3, runbook: 3, checklist: 2, architecture: 1 }),
  },
  // The same question, relevant documents that differ by who asks.
  {
    id: 'sl-enterprise-carol',
    query: 'enterprise deals playbook',
    profileId: 'carol',
    docs: family('sl-enterprise-deals', { playbook: 3, faq: 2, objections: 2, update: 1 }),
  },
  {
    id: 'sl-enterprise-alice',
    query: 'enterprise deals playbook',
    profileId: 'alice',
    docs: family('sl-enterprise-deals', { playbook: 0, faq: 3, objections: 2, update: 1 }),
    notes: 'Alice was revoked from the playbook: showing it to her is a fault, not a hit.',
  },
  {
    id: 'en-incidents-carol',
    query: 'incident response postmortem',
    profileId: 'carol',
    docs: family('en-incidents', { postmortem: 3, runbook: 2, checklist: 1, guidelines: 1 }),
  },
  {
    id: 'en-incidents-bob',
    query: 'incident response postmortem',
    profileId: 'bob',
    docs: family('en-incidents', {
      postmortem: 0,
      runbook: 3,
      checklist: 2,
      guidelines: 1,
      architecture: 1,
    }),
    notes: 'The postmortem is withheld from Bob while under review.',
  },
  {
    id: 'it-vpn-admin-bob',
    query: 'vpn admin runbook',
    profileId: 'bob',
    docs: family('it-vpn', { 'admin-runbook': 3, troubleshoot: 2, security: 1 }),
  },
  {
    id: 'it-vpn-admin-dan',
    query: 'vpn admin runbook',
    profileId: 'dan',
    docs: family('it-vpn', { 'admin-runbook': 0, troubleshoot: 3, setup: 2, faq: 2, security: 1 }),
    notes: 'Dan is a contractor: the admin runbook is not for him.',
  },
]

const EMAIL: Record<Profile, string> = {
  alice: 'alice@example.com',
  bob: 'bob@example.com',
  carol: 'carol@example.com',
  dan: 'dan@contractor.example',
}

const acme = grantFor(RAGBOX_KEYS.acme)!

/** Every key the demo servers give a document, the asking user's link first. */
function keysOf(doc: Doc, first: Profile): string[] {
  const users = [EMAIL[first], ...DEMO_USERS.map((user) => user.id)]
  const links = users.flatMap((userId) => {
    const uri = citationUrl(doc, {
      docHost: EMBEDDED_DOC_HOST,
      userId,
      ttlSeconds: 300,
      secret: 'demo',
    })
    return uri ? [dedupeKey({ id: doc.id, uri })] : []
  })
  const vtex = VTEX_SOURCES.includes(doc.source) ? [`id:${doc.id}`] : []
  const vault = vaultDocs(acme).includes(doc) && visibleTo(doc, acme) ? [`id:${vaultId(doc)}`] : []
  return [...new Set([...links, ...vtex, ...vault])]
}

function judgment(doc: Doc, grade: Grade, profile: Profile): Judgment {
  const [docKey, ...aliases] = keysOf(doc, profile)
  const judged: Judgment = { docKey: docKey!, grade, title: doc.title }
  if (aliases.length > 0) judged.aliases = aliases
  return judged
}

/** The set as shipped. */
export function buildDemoGoldenSet(): GoldenSet {
  const byId = new Map(getCorpus().docs.map((doc) => [doc.id, doc]))
  const queries = TOPICS.map((topic): EvalQuery => {
    const judgments = Object.entries(topic.docs).map(([docId, grade]) => {
      const doc = byId.get(docId)
      if (!doc) throw new Error(`demo golden set: ${topic.id} judges ${docId}, not in the corpus`)
      return judgment(doc, grade, topic.profileId ?? 'carol')
    })
    const query: EvalQuery = { id: topic.id, query: topic.query, judgments }
    if (topic.profileId) query.profileId = topic.profileId
    if (topic.notes) query.notes = topic.notes
    return query
  })
  return {
    version: 1,
    id: 'demo',
    name: 'Demo corpus',
    description:
      'Questions over the demo servers’ corpus (handbook, IT, product, legal, sales, engineering) with graded judgments; six ask the same thing as different users, whose relevant documents differ.',
    queries,
  }
}
