import { lowerFirst } from './words'
import type { SourceTemplate } from './types'

/** Product documentation for Acme Ledger, the company's accounting product. */
export const product: SourceTemplate = {
  id: 'product',
  prefix: 'pd',
  people: ['Nora Fischer', 'Ade Okafor', 'Mei Chen'],
  fileTypes: ['md', 'html'],
  groups: ['users', 'contractors'],
  restricted: false,
  tier: 'standard',
  category: 'Product',
  topics: [
    {
      key: 'invoices',
      title: 'Invoices',
      name: 'invoices',
      owner: 'Product Team',
      system: 'the Invoices screen',
      tags: ['invoices', 'billing'],
      facts: [
        'Acme Ledger creates invoices from templates with your logo, tax numbers and payment terms.',
        'Recurring invoices are sent automatically every week, month or quarter.',
        'An invoice can be edited until it is sent; after that, issue a credit note instead.',
      ],
    },
    {
      key: 'payments',
      title: 'Payments',
      name: 'payments',
      owner: 'Product Team',
      system: 'the Payments screen',
      tags: ['payments', 'billing'],
      facts: [
        'Customers pay invoices by card or bank transfer from the payment link in the invoice email.',
        'Payments are matched to invoices automatically when the reference matches.',
        'Card payouts reach your bank account within {count} business days.',
      ],
    },
    {
      key: 'reports',
      title: 'Financial Reports',
      name: 'financial reports',
      owner: 'Product Team',
      system: 'the Reports screen',
      tags: ['reports', 'analytics'],
      facts: [
        'Standard reports include profit and loss, balance sheet, cash flow and aged receivables.',
        'Reports can be filtered by period, customer, project and currency.',
        'Scheduled reports are emailed as PDF every month to the addresses you choose.',
      ],
    },
    {
      key: 'user-roles',
      title: 'User Roles and Permissions',
      name: 'user roles',
      owner: 'Product Team',
      system: 'Settings → Users',
      tags: ['permissions', 'roles', 'admin'],
      facts: [
        'Acme Ledger has four roles: Owner, Admin, Accountant and Viewer.',
        'Only Owners and Admins can invite users or change roles in {system}.',
        'Viewers see reports but cannot create or change transactions.',
      ],
    },
    {
      key: 'api-keys',
      title: 'API Keys',
      name: 'API keys',
      owner: 'Platform Team',
      system: 'Settings → Developers',
      tags: ['api', 'developers', 'security'],
      facts: [
        'API keys are created in {system} and are shown only once.',
        'Each key has scopes; read-only keys cannot create invoices or payments.',
        'The public API allows {count}00 requests per minute per key and answers 429 beyond that.',
      ],
    },
    {
      key: 'webhooks',
      title: 'Webhooks',
      name: 'webhooks',
      owner: 'Platform Team',
      system: 'Settings → Developers',
      tags: ['api', 'webhooks', 'developers'],
      facts: [
        'Webhooks notify your endpoint when invoices are sent, paid or overdue.',
        'Every delivery is signed with an HMAC header so you can verify it came from Acme Ledger.',
        'Failed deliveries are retried with backoff for up to {hours} hours.',
      ],
    },
    {
      key: 'data-export',
      title: 'Data Export',
      name: 'data export',
      owner: 'Product Team',
      system: 'Settings → Export',
      tags: ['export', 'csv', 'data'],
      facts: [
        'Owners can export all ledgers, invoices and contacts as CSV or JSON from {system}.',
        'Large exports are prepared in the background and emailed as a download link valid for {days} days.',
        'Exports include attachments only when you tick "Include files".',
      ],
    },
    {
      key: 'integrations',
      title: 'Bank and App Integrations',
      name: 'integrations',
      owner: 'Product Team',
      system: 'the Integrations marketplace',
      tags: ['integrations', 'bank-feeds'],
      facts: [
        'Bank feeds import transactions daily from over {count}00 banks.',
        'Payroll, CRM and e-commerce apps connect from {system}.',
        'Disconnected feeds show a yellow banner and need to be re-authorised by an Owner.',
      ],
    },
    {
      key: 'audit-log',
      title: 'Audit Log',
      name: 'the audit log',
      owner: 'Product Team',
      system: 'Settings → Audit log',
      tags: ['audit', 'compliance', 'security'],
      facts: [
        'The audit log records every change to transactions, users and settings with who, when and what.',
        'Entries are kept for {count} years and cannot be edited or deleted.',
        'Auditors can be invited with a time-limited Viewer role to read the audit log.',
      ],
    },
    {
      key: 'plans',
      title: 'Plans and Billing',
      name: 'plans and billing',
      owner: 'Product Team',
      system: 'Settings → Billing',
      tags: ['pricing', 'plans', 'billing'],
      facts: [
        'Acme Ledger comes in Starter, Growth and Enterprise plans, billed monthly or yearly.',
        'Yearly billing saves {percent}% compared to paying monthly.',
        'Downgrades take effect at the end of the current billing period.',
      ],
    },
  ],
  kinds: [
    {
      key: 'getting-started',
      title: (t) => `Getting Started with ${t.title}`,
      tags: ['getting-started'],
      sections: (t) => [
        ['What it does', `${t.facts[0]} ${t.facts[1]}`],
        [
          'First steps',
          `Open ${t.system} from the main menu. Follow the guided setup, then try it with one example before inviting your team.`,
        ],
        ['Next', `${t.facts[2]} See the ${t.title} reference for every option.`],
      ],
    },
    {
      key: 'reference',
      title: (t) => `${t.title} Reference`,
      tags: ['reference'],
      sections: (t, v) => [
        ['Where to find it', `Everything about ${t.name} lives in ${t.system}. ${t.facts[0]}`],
        ['Options', `${t.facts[1]} ${t.facts[2]}`],
        [
          'Limits',
          `Accounts on the Starter plan are limited to ${v.count}0 items per day. Higher limits are available on Growth and Enterprise.`,
        ],
      ],
    },
    {
      key: 'best-practices',
      title: (t) => `Best Practices for ${t.title}`,
      tags: ['best-practices'],
      sections: (t, v) => [
        [
          'Keep it simple',
          `Teams that succeed with ${t.name} agree on a few conventions early. ${t.facts[1]}`,
        ],
        ['Review regularly', `Review ${t.name} every ${v.weeks} weeks. ${t.facts[2]}`],
        [
          'Ask for help',
          `Our customer success team runs a free ${t.name} workshop every month. Contact ${v.contact}.`,
        ],
      ],
    },
    {
      key: 'release-notes',
      title: (t) => `${t.title}: Release Notes`,
      tags: ['release-notes', 'changelog'],
      sections: (t, v) => [
        [
          `Version ${v.version}`,
          `This release improves ${t.name}. ${t.facts[0]} Loading times are ${v.percent}% shorter.`,
        ],
        ['Fixes', `Fixed rare errors when ${t.system} was opened on mobile. ${t.facts[2]}`],
        [
          'Coming next',
          `${v.person} and the ${t.owner} are working on bulk actions for ${t.name}.`,
        ],
      ],
    },
    {
      key: 'sales-notes',
      title: (t) => `Selling ${t.title}: Notes for Account Executives`,
      tags: ['sales', 'positioning'],
      category: 'Business',
      groups: () => ['sales', 'admin'],
      sections: (t, v) => [
        [
          'Positioning',
          `Lead with outcomes: ${lowerFirst(t.facts[0])} Customers switching from Globex Books value this most.`,
        ],
        [
          'Pricing talking points',
          `${t.title} is included in every plan. Enterprise customers get ${v.percent}% more capacity and priority support.`,
        ],
        ['Objections', `If prospects ask about limits: ${t.facts[2]}`],
      ],
    },
  ],
}
