import type { SourceTemplate } from './types'

/** The IT knowledge base: how-tos and troubleshooting for everyday tools. */
export const itKb: SourceTemplate = {
  id: 'it-kb',
  prefix: 'it',
  people: ['Marek Nowak', 'Grace Obi', 'Sam Lindqvist'],
  fileTypes: ['html', 'md'],
  groups: ['users', 'contractors'],
  restricted: false,
  tier: 'standard',
  category: 'Technical',
  topics: [
    {
      key: 'vpn',
      title: 'VPN',
      name: 'the VPN',
      owner: 'IT Support',
      system: 'GlobalProtect',
      tags: ['vpn', 'network', 'remote'],
      facts: [
        'The VPN client is {system}; connect to the gateway vpn.acme.example before opening internal tools.',
        'Sessions disconnect after {hours} hours and ask you to sign in again with MFA.',
        'If the client shows "gateway unreachable", switch networks or restart the client before opening a ticket.',
      ],
    },
    {
      key: 'mfa',
      title: 'Multi-Factor Authentication',
      name: 'multi-factor authentication',
      owner: 'Security Team',
      system: 'Okta Verify',
      tags: ['mfa', 'security', 'login'],
      facts: [
        'Every account must enrol {system} or a hardware security key before first sign-in.',
        'If you lose your phone, IT Support can issue a temporary bypass code valid for {hours} hours.',
        'Push prompts you did not start must be denied and reported to the Security Team.',
      ],
    },
    {
      key: 'password-manager',
      title: 'Password Manager',
      name: 'the password manager',
      owner: 'Security Team',
      system: '1Password',
      tags: ['passwords', 'security'],
      facts: [
        'Store every work password in {system}; shared vaults exist for each team.',
        'Passwords need at least 14 characters or a four-word passphrase.',
        'Never paste passwords into chat or tickets; share a vault item instead.',
      ],
    },
    {
      key: 'wifi',
      title: 'Office Wi-Fi',
      name: 'office Wi-Fi',
      owner: 'IT Support',
      system: 'the Acme-Corp network',
      tags: ['wifi', 'network', 'office'],
      facts: [
        'Company laptops join {system} automatically with a device certificate.',
        'Guests use Acme-Guest; the daily password is shown at reception.',
        'Personal phones may use Acme-Guest only, never {system}.',
      ],
    },
    {
      key: 'email',
      title: 'Email and Calendar',
      name: 'email and calendar',
      owner: 'IT Support',
      system: 'Google Workspace',
      tags: ['email', 'calendar'],
      facts: [
        'Mail and calendars run on {system}; mailboxes hold up to {count}0 GB.',
        'Suspicious mail is reported with the "Report phishing" button, never forwarded.',
        'Shared mailboxes are requested through the IT service portal.',
      ],
    },
    {
      key: 'printer',
      title: 'Printers',
      name: 'office printers',
      owner: 'IT Support',
      system: 'PaperCut',
      tags: ['printer', 'office'],
      facts: [
        'Print jobs are held in {system} until you badge in at any office printer.',
        'Colour printing is limited to {count}00 pages per month per person.',
        'Jammed printers are reported with the QR code sticker on the device.',
      ],
    },
    {
      key: 'sso',
      title: 'Single Sign-On',
      name: 'single sign-on',
      owner: 'Security Team',
      system: 'Okta',
      tags: ['sso', 'login', 'security'],
      facts: [
        'All company applications sign in through {system}; there are no separate passwords.',
        'New applications are connected to single sign-on by the Security Team within {days} days.',
        'Access to an application is granted by group membership, reviewed every quarter.',
      ],
    },
    {
      key: 'video-calls',
      title: 'Video Calls',
      name: 'video calls',
      owner: 'IT Support',
      system: 'Zoom',
      tags: ['meetings', 'video'],
      facts: [
        'Meeting rooms have {system} room systems; start a meeting from the tablet on the table.',
        'Recordings are kept for {days} days and then deleted automatically.',
        'External participants join from the link without an account.',
      ],
    },
    {
      key: 'shared-drives',
      title: 'Shared Drives',
      name: 'shared drives',
      owner: 'IT Support',
      system: 'Google Drive',
      tags: ['files', 'storage'],
      facts: [
        'Team files live in shared drives in {system}, never in personal folders.',
        'Each shared drive has at least two managers; the team lead requests new drives.',
        'Deleted files stay in the trash for {days} days.',
      ],
    },
    {
      key: 'mobile-devices',
      title: 'Mobile Devices',
      name: 'mobile devices',
      owner: 'IT Support',
      system: 'Intune',
      tags: ['mobile', 'phone', 'security'],
      facts: [
        'Phones that read work mail must be enrolled in {system}.',
        'Enrolled phones need a screen lock and an OS version at most {count} releases old.',
        'A lost phone can be wiped remotely; report it within {hours} hours.',
      ],
    },
    {
      key: 'software',
      title: 'Software Installation',
      name: 'software installation',
      owner: 'IT Support',
      system: 'the Self Service app',
      tags: ['software', 'laptop'],
      facts: [
        'Approved software installs from {system} without admin rights.',
        'Other software is requested through the IT service portal and reviewed within {days} days.',
        'Browser extensions that read page content need a security review first.',
      ],
    },
    {
      key: 'backups',
      title: 'Laptop Backups',
      name: 'laptop backups',
      owner: 'IT Support',
      system: 'CrashPlan',
      tags: ['backup', 'laptop', 'files'],
      facts: [
        'Laptops back up to {system} every {hours} hours while connected to the internet.',
        'Restores of single files are self-service; full restores need a ticket.',
        'Backups are kept for {days} days after a laptop is returned.',
      ],
    },
  ],
  kinds: [
    {
      key: 'setup',
      title: (t) => `Set Up ${t.title}`,
      tags: ['how-to', 'setup'],
      sections: (t, v) => [
        ['Overview', `${t.facts[0]} This guide takes about ${v.count + 5} minutes.`],
        [
          'Steps',
          `Open ${t.system} on your laptop and sign in with your Acme account. Accept the prompts for your device, then confirm the setup from your phone. Restart the application when asked.`,
        ],
        ['Good to know', `${t.facts[1]} ${v.person} from the ${t.owner} keeps this guide current.`],
      ],
    },
    {
      key: 'troubleshoot',
      title: (t) => `Troubleshooting ${t.title}`,
      tags: ['troubleshooting'],
      sections: (t, v) => [
        [
          'Common problems',
          `Most problems with ${t.name} come from an expired session or an outdated client. ${t.facts[2]}`,
        ],
        [
          'What to try first',
          `Sign out, restart your laptop and sign in again. Check the status page for ongoing incidents. ${t.facts[1]}`,
        ],
        [
          'Opening a ticket',
          `If the problem persists after ${v.hours} hours, open a ticket in the IT service portal with a screenshot of the error. Priority tickets are answered within ${v.count} hours.`,
        ],
      ],
    },
    {
      key: 'security',
      title: (t) => `${t.title} Security Requirements`,
      tags: ['security', 'policy'],
      sections: (t, v) => [
        ['Scope', `These requirements apply to everyone who uses ${t.name}. ${t.facts[0]}`],
        ['Requirements', `${t.facts[1]} ${t.facts[2]}`],
        [
          'Audits',
          `The Security Team audits compliance every ${v.months} months and follows up within ${v.days} days.`,
        ],
      ],
    },
    {
      key: 'faq',
      title: (t) => `${t.title}: Frequently Asked Questions`,
      tags: ['faq'],
      category: 'FAQ',
      sections: (t, v) => [
        ['Which tool do we use?', `${t.facts[0]}`],
        ['Is there a limit?', `${t.facts[1]}`],
        ['Where do I get help?', `Ask in #it-help or write to ${v.contact}. ${t.facts[2]}`],
      ],
    },
    {
      key: 'admin-runbook',
      title: (t) => `${t.title}: Admin Runbook`,
      tags: ['runbook', 'admin'],
      groups: () => ['engineering', 'admin'],
      sections: (t, v) => [
        [
          'Access',
          `Only IT administrators and on-call engineers use this runbook. Admin access to ${t.system} is granted for ${v.hours} hours at a time.`,
        ],
        [
          'Routine tasks',
          `Review the ${t.system} audit report every Monday. ${t.facts[2]} Rotate service credentials every ${v.months} months.`,
        ],
        [
          'Incidents',
          `If ${t.name} is down for more than ${v.count}0 minutes, page the on-call engineer and post in #incidents.`,
        ],
      ],
    },
  ],
}
