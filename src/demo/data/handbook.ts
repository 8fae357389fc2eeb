import type { SourceTemplate } from './types'

const people = ['Priya Shah', 'Tom Becker', 'Hana Kobayashi', 'Luis Ortega']

/** The employee handbook: policies every employee reads. */
export const handbook: SourceTemplate = {
  id: 'handbook',
  prefix: 'hb',
  people,
  fileTypes: ['pdf', 'docx'],
  groups: ['users'],
  restricted: false,
  tier: 'standard',
  category: 'Business',
  topics: [
    {
      key: 'pto',
      title: 'Paid Time Off',
      name: 'paid time off',
      owner: 'People Team',
      system: 'Workday',
      tags: ['leave', 'pto', 'vacation'],
      facts: [
        'Full-time employees accrue {days} days of paid time off per year, credited monthly.',
        'Up to {count} unused days carry over into the first quarter of the next year; the rest lapse.',
        'Absences longer than one week need approval at least {weeks} weeks in advance.',
      ],
    },
    {
      key: 'parental-leave',
      title: 'Parental Leave',
      name: 'parental leave',
      owner: 'People Team',
      system: 'Workday',
      tags: ['leave', 'family'],
      facts: [
        'Birth, adoptive and foster parents receive 16 weeks of fully paid parental leave.',
        'Leave can be split into up to three blocks taken within {months} months of the child joining the family.',
        'Your manager plans coverage with you at least {weeks} weeks before the first block starts.',
      ],
    },
    {
      key: 'remote-work',
      title: 'Remote Work',
      name: 'remote work',
      owner: 'People Team',
      system: 'the HR portal',
      tags: ['remote', 'hybrid', 'workplace'],
      groups: ['users', 'contractors'],
      facts: [
        'Teams agree on at least {count} shared office days per month; other days may be worked from home.',
        'Working from another country for more than {days} days a year needs approval from People and Tax.',
        'A one-time home office allowance of ${amount} covers a desk, a chair or a monitor.',
      ],
    },
    {
      key: 'travel-expenses',
      title: 'Travel and Expenses',
      name: 'travel and expenses',
      owner: 'Finance',
      system: 'Expensify',
      tags: ['travel', 'expenses', 'reimbursement'],
      facts: [
        'Book flights and hotels through the travel desk; economy class applies to flights under {hours} hours.',
        'Submit receipts in {system} within {days} days of returning from the trip.',
        'Meals are reimbursed up to ${amount} per day; alcohol is never reimbursed.',
      ],
    },
    {
      key: 'equipment',
      title: 'Equipment Allowance',
      name: 'equipment allowance',
      owner: 'IT Support',
      system: 'the IT service portal',
      tags: ['equipment', 'laptop', 'allowance'],
      facts: [
        'Every employee receives a laptop that is refreshed every {months} months.',
        'Peripherals up to ${amount} per year can be ordered without manager approval.',
        'Lost or stolen equipment must be reported to IT Support within {hours} hours.',
      ],
    },
    {
      key: 'performance-reviews',
      title: 'Performance Reviews',
      name: 'performance reviews',
      owner: 'People Team',
      system: 'Lattice',
      tags: ['performance', 'reviews', 'career'],
      facts: [
        'Performance reviews run twice a year, in March and September, in {system}.',
        'Each review combines a self-assessment, feedback from {count} peers and the manager assessment.',
        'Promotion cases are calibrated across teams before they are confirmed.',
      ],
    },
    {
      key: 'onboarding',
      title: 'Onboarding',
      name: 'onboarding',
      owner: 'People Team',
      system: 'the onboarding checklist',
      tags: ['onboarding', 'new-hire'],
      groups: ['users', 'contractors'],
      facts: [
        'New hires get their laptop and accounts on day one and a buddy for the first {weeks} weeks.',
        'The first {days} days include security training, a product tour and meetings with key teams.',
        'Managers confirm the end of the probation period after {months} months.',
      ],
    },
    {
      key: 'code-of-conduct',
      title: 'Code of Conduct',
      name: 'the code of conduct',
      owner: 'Legal Team',
      system: 'the ethics hotline',
      tags: ['conduct', 'ethics', 'compliance'],
      groups: ['everyone'],
      facts: [
        'Everyone working with Acme treats colleagues, customers and partners with respect.',
        'Gifts above ${amount} in value must be declared to the compliance officer.',
        'Concerns can be raised anonymously through {system}; retaliation is never tolerated.',
      ],
    },
    {
      key: 'health-benefits',
      title: 'Health Benefits',
      name: 'health benefits',
      owner: 'People Team',
      system: 'the benefits portal',
      tags: ['benefits', 'health', 'insurance'],
      facts: [
        'Acme pays 90% of health insurance premiums for employees and their dependants.',
        'Open enrollment runs for {weeks} weeks every November in {system}.',
        'Life events such as marriage or a new child allow changes within {days} days.',
      ],
    },
    {
      key: 'learning-budget',
      title: 'Learning Budget',
      name: 'the learning budget',
      owner: 'People Team',
      system: 'the learning platform',
      tags: ['learning', 'training', 'career'],
      facts: [
        'Each employee has ${amount} per year for courses, books and conferences.',
        'Up to {days} working days a year may be used for learning with manager approval.',
        'Certifications that need renewal are paid from the team budget instead.',
      ],
    },
  ],
  kinds: [
    {
      key: 'policy',
      title: (t) => `${t.title} Policy`,
      tags: ['policy'],
      sections: (t, v) => [
        [
          'Purpose',
          `This policy explains how ${t.name} works at Acme and who it applies to. It is owned by the ${t.owner} and reviewed every ${v.months} months.`,
        ],
        ['Policy', `${t.facts[0]} ${t.facts[1]}`],
        [
          'Exceptions',
          `${t.facts[2]} Exceptions need written approval from your manager and the ${t.owner}. Questions go to ${v.contact}.`,
        ],
      ],
    },
    {
      key: 'request',
      title: (t) => `How to Request ${t.title}`,
      tags: ['how-to'],
      sections: (t, v) => [
        [
          'Before you start',
          `Check the ${t.title} Policy first. ${t.facts[0]} You need access to ${t.system}.`,
        ],
        [
          'Steps',
          `Open ${t.system} and choose "New request". Fill in the dates or amounts and add a short note for your manager. Submit the request; your manager is notified at once.`,
        ],
        [
          'After you submit',
          `${t.facts[2]} Most requests are answered within ${v.hours} hours. If nothing happens after ${v.days} days, contact ${v.contact}.`,
        ],
      ],
    },
    {
      key: 'faq',
      title: (t) => `${t.title} FAQ`,
      tags: ['faq'],
      sections: (t, v) => [
        ['Who does this apply to?', `All employees. ${t.facts[0]}`],
        ['What happens to what I do not use?', `${t.facts[1]}`],
        [
          'Who do I ask?',
          `The ${t.owner} answers questions about ${t.name} in the #ask-people channel or at ${v.contact}. ${v.person} maintains this page.`,
        ],
      ],
    },
    {
      key: 'manager-guide',
      title: (t) => `${t.title}: Guide for Managers`,
      tags: ['managers'],
      sections: (t, v) => [
        [
          'Your role',
          `Managers approve or decline requests about ${t.name} in ${t.system} within ${v.days} working days.`,
        ],
        ['What to check', `${t.facts[1]} ${t.facts[2]}`],
        [
          'Escalation',
          `Unusual cases go to the ${t.owner}. Keep a short written record of every decision for ${v.months} months.`,
        ],
      ],
    },
  ],
}
