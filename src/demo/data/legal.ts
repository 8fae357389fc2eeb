import { lowerFirst } from './words'
import type { SourceTemplate } from './types'

/** Legal: contracts, templates and playbooks; mostly restricted to Legal and admins. */
export const legal: SourceTemplate = {
  id: 'legal',
  prefix: 'lg',
  people: ['Carol Mendes', 'Jonas Weber', 'Aisha Rahman'],
  fileTypes: ['docx', 'pdf'],
  groups: ['legal', 'admin'],
  restricted: true,
  tier: 'privileged',
  category: 'Business',
  topics: [
    {
      key: 'msa',
      title: 'Master Services Agreement',
      name: 'the master services agreement',
      owner: 'Legal Team',
      system: 'Ironclad',
      tags: ['contracts', 'msa'],
      facts: [
        'The MSA caps each party’s liability at the fees paid in the previous {months} months.',
        'Either party may terminate for material breach not cured within {days} days of notice.',
        'Governing law is the State of New York unless the customer is in the EU, then Ireland.',
      ],
    },
    {
      key: 'dpa',
      title: 'Data Processing Addendum',
      name: 'the data processing addendum',
      owner: 'Legal Team',
      system: 'Ironclad',
      tags: ['privacy', 'gdpr', 'contracts'],
      facts: [
        'The DPA applies whenever Acme processes personal data on behalf of a customer.',
        'Personal data breaches are notified to the customer within {hours} hours of discovery.',
        'Sub-processors are listed publicly; customers get {days} days to object to a new one.',
      ],
    },
    {
      key: 'nda',
      title: 'Non-Disclosure Agreement',
      name: 'non-disclosure agreements',
      owner: 'Legal Team',
      system: 'Ironclad',
      tags: ['nda', 'contracts', 'confidentiality'],
      facts: [
        'Use the mutual NDA template for partners and the one-way template for candidates and vendors.',
        'Confidentiality obligations survive for {count} years after the NDA ends.',
        'Sales may sign the standard mutual NDA without Legal review if no clause is changed.',
      ],
    },
    {
      key: 'privacy-policy',
      title: 'Privacy Policy',
      name: 'the privacy policy',
      owner: 'Privacy Office',
      system: 'the public website',
      tags: ['privacy', 'gdpr', 'public'],
      groups: ['everyone'],
      facts: [
        'Acme collects account, usage and billing data to provide and improve Acme Ledger.',
        'Users can request a copy or deletion of their data; requests are answered within {days} days.',
        'Data is stored in the EU and the US and transferred under standard contractual clauses.',
      ],
    },
    {
      key: 'terms',
      title: 'Terms of Service',
      name: 'the terms of service',
      owner: 'Legal Team',
      system: 'the public website',
      tags: ['terms', 'public', 'contracts'],
      groups: ['everyone'],
      facts: [
        'The terms of service govern self-serve customers who sign up online.',
        'Acme may change the terms with {days} days of notice by email.',
        'Refunds are available within {days} days of the first payment.',
      ],
    },
    {
      key: 'export-controls',
      title: 'Export Controls',
      name: 'export controls',
      owner: 'Legal Team',
      system: 'the screening tool',
      tags: ['compliance', 'export', 'sanctions'],
      facts: [
        'Every new customer is screened against sanctions lists in {system} before signing.',
        'Acme does not sell to embargoed countries or listed parties.',
        'Matches are escalated to Legal within {hours} hours and the deal is paused.',
      ],
    },
    {
      key: 'open-source',
      title: 'Open-Source Licensing',
      name: 'open-source licensing',
      owner: 'Legal Team',
      system: 'the license scanner',
      tags: ['open-source', 'licensing', 'engineering'],
      groups: ['legal', 'admin', 'engineering'],
      facts: [
        'Permissive licenses such as MIT, BSD and Apache-2.0 are approved for all uses.',
        'Copyleft licenses such as GPL and AGPL need Legal approval before use in shipped code.',
        '{system} checks every build and blocks unknown licenses.',
      ],
    },
    {
      key: 'retention',
      title: 'Records Retention',
      name: 'records retention',
      owner: 'Legal Team',
      system: 'the records schedule',
      tags: ['retention', 'compliance', 'records'],
      facts: [
        'Financial records are kept for {count} years, contracts for six years after they end.',
        'A legal hold suspends deletion for everything it names until Legal releases it.',
        'Personal data is deleted {days} days after an account closes unless a hold applies.',
      ],
    },
  ],
  kinds: [
    {
      key: 'overview',
      title: (t) => `${t.title}: Overview`,
      tags: ['overview'],
      sections: (t, v) => [
        ['Summary', `${t.facts[0]} This overview is maintained by ${v.person}.`],
        ['Key terms', `${t.facts[1]} ${t.facts[2]}`],
        ['Contacts', `Questions about ${t.name} go to ${v.contact}.`],
      ],
    },
    {
      key: 'clauses',
      title: (t) => `${t.title}: Standard Clauses`,
      tags: ['clauses', 'templates'],
      sections: (t, v) => [
        [`Clause ${v.count}.1`, `${t.facts[1]}`],
        [`Clause ${v.count}.2`, `${t.facts[2]}`],
        [
          'Fallback positions',
          `If the customer rejects clause ${v.count}.1, Legal may accept a cap of ${v.months + 12} months of fees. Record every deviation in ${t.system}.`,
        ],
      ],
    },
    {
      key: 'playbook',
      title: (t) => `${t.title}: Negotiation Playbook`,
      tags: ['playbook', 'negotiation'],
      groups: (t) => (t.groups?.includes('everyone') ? ['legal', 'admin'] : undefined),
      sections: (t, v) => [
        ['Our position', `${t.facts[0]} Start from the standard template, always.`],
        [
          'Common requests',
          `Customers often ask to change: ${lowerFirst(t.facts[1])} Accept small changes; escalate anything that shifts risk.`,
        ],
        [
          'Escalation',
          `Deals above $${v.amount}k need the General Counsel’s sign-off within ${v.days} days.`,
        ],
      ],
    },
    {
      key: 'approval',
      title: (t) => `${t.title}: Approval Matrix`,
      tags: ['approvals'],
      groups: (t) => (t.groups?.includes('everyone') ? ['legal', 'admin'] : undefined),
      sections: (t, v) => [
        ['Who approves', `Changes to ${t.name} are approved by the ${t.owner}. ${t.facts[2]}`],
        [
          'Thresholds',
          `Up to $${v.amount}k: senior counsel. Above that: General Counsel. Non-standard liability: always General Counsel.`,
        ],
        ['Records', `Every approval is logged in ${t.system} with the reason.`],
      ],
    },
  ],
}
