import type { SourceTemplate } from './types'

/** Engineering: runbooks, guidelines and architecture notes. */
export const engineering: SourceTemplate = {
  id: 'engineering',
  prefix: 'en',
  people: ['Bob Martins', 'Ines Costa', 'Kwame Mensah', 'Yuki Tanaka'],
  fileTypes: ['md'],
  groups: ['engineering', 'admin'],
  restricted: true,
  tier: 'confidential',
  category: 'Technical',
  topics: [
    {
      key: 'deployments',
      title: 'Deployment Pipeline',
      name: 'the deployment pipeline',
      owner: 'Platform Team',
      system: 'GitHub Actions and Argo CD',
      tags: ['deployments', 'ci', 'kubernetes'],
      facts: [
        'Every merge to main builds an image and deploys it to staging with {system}.',
        'Production deploys are promoted from staging after {count} green canary checks.',
        'Deploy freezes apply from the last Friday of December until the second Monday of January.',
      ],
    },
    {
      key: 'incidents',
      title: 'Incident Response',
      name: 'incident response',
      owner: 'SRE Team',
      system: 'PagerDuty',
      tags: ['incidents', 'on-call', 'sre'],
      facts: [
        'Incidents are declared in #incidents and paged through {system}.',
        'SEV1 incidents get a status page update every {count}0 minutes.',
        'A blameless postmortem is written within {days} days of every SEV1 or SEV2.',
      ],
    },
    {
      key: 'code-review',
      title: 'Code Review',
      name: 'code review',
      owner: 'Engineering Leadership',
      system: 'GitHub',
      tags: ['code-review', 'quality'],
      facts: [
        'Every pull request needs one approving review from a code owner in {system}.',
        'Reviews are expected within {hours} hours on working days.',
        'Large changes are split into pull requests under {count}00 lines when possible.',
      ],
    },
    {
      key: 'on-call',
      title: 'On-Call Rotation',
      name: 'the on-call rotation',
      owner: 'SRE Team',
      system: 'PagerDuty',
      tags: ['on-call', 'sre'],
      facts: [
        'Each service team runs a weekly rotation in {system} with a primary and a secondary.',
        'Pages must be acknowledged within {count} minutes.',
        'On-call engineers receive a stipend of ${amount} per week on rotation.',
      ],
    },
    {
      key: 'migrations',
      title: 'Database Migrations',
      name: 'database migrations',
      owner: 'Data Platform Team',
      system: 'Flyway',
      tags: ['database', 'postgres', 'migrations'],
      facts: [
        'Schema changes ship as {system} migrations that are backwards compatible with the previous release.',
        'Columns are dropped only {count} releases after the code stopped reading them.',
        'Migrations on tables over 10 million rows need a review from the Data Platform Team.',
      ],
    },
    {
      key: 'feature-flags',
      title: 'Feature Flags',
      name: 'feature flags',
      owner: 'Platform Team',
      system: 'LaunchDarkly',
      tags: ['feature-flags', 'releases'],
      facts: [
        'New features ship dark behind a flag in {system} and are enabled gradually.',
        'Flags older than {months} months are reviewed and removed.',
        'Kill switches exist for every feature that calls an external service.',
      ],
    },
    {
      key: 'observability',
      title: 'Observability',
      name: 'observability',
      owner: 'SRE Team',
      system: 'Grafana and OpenTelemetry',
      tags: ['monitoring', 'metrics', 'tracing'],
      facts: [
        'Services export metrics, logs and traces with OpenTelemetry; dashboards live in Grafana.',
        'Every service defines an availability SLO and alerts on burn rate, not on raw errors.',
        'Logs are kept for {days} days; traces for {count} days.',
      ],
    },
    {
      key: 'ownership',
      title: 'Service Ownership',
      name: 'service ownership',
      owner: 'Engineering Leadership',
      system: 'the service catalog',
      tags: ['ownership', 'services'],
      facts: [
        'Every service has exactly one owning team listed in {system}.',
        'Owners keep the runbook, dashboards and on-call rotation of their service current.',
        'Orphaned services are assigned by the engineering leadership within {weeks} weeks.',
      ],
    },
    {
      key: 'api-versioning',
      title: 'API Versioning',
      name: 'API versioning',
      owner: 'Platform Team',
      system: 'the API gateway',
      tags: ['api', 'versioning'],
      facts: [
        'Public APIs are versioned by date in the URL and supported for {months} months after a new version.',
        'Breaking changes are announced in the changelog at least {weeks} weeks ahead.',
        '{system} rejects calls to retired versions with 410 Gone.',
      ],
    },
    {
      key: 'security-reviews',
      title: 'Security Reviews',
      name: 'security reviews',
      owner: 'Security Team',
      system: 'the security review form',
      tags: ['security', 'reviews', 'threat-modeling'],
      facts: [
        'New services and new data flows need a security review before launch.',
        'Reviews start from a threat model written by the team in {system}.',
        'High findings block the launch; medium findings get a fix date within {days} days.',
      ],
    },
  ],
  kinds: [
    {
      key: 'runbook',
      title: (t) => `${t.title} Runbook`,
      tags: ['runbook'],
      sections: (t, v) => [
        [
          'When to use this',
          `Use this runbook when something goes wrong with ${t.name}. ${t.facts[0]}`,
        ],
        [
          'Procedure',
          `Check the ${t.owner} dashboard first. ${t.facts[1]} If the problem persists for ${v.count}0 minutes, escalate to the ${t.owner} on-call.`,
        ],
        ['Afterwards', `${t.facts[2]} Update this runbook if a step was wrong.`],
      ],
    },
    {
      key: 'guidelines',
      title: (t) => `${t.title} Guidelines`,
      tags: ['guidelines'],
      groups: () => ['users'],
      sections: (t, v) => [
        ['Principles', `${t.facts[0]} ${t.facts[1]}`],
        ['In practice', `${t.facts[2]} Teams review these guidelines every ${v.months} months.`],
        ['Questions', `Ask the ${t.owner} in #eng-help. ${v.person} maintains this page.`],
      ],
    },
    {
      key: 'architecture',
      title: (t) => `${t.title}: Architecture Notes`,
      tags: ['architecture', 'design'],
      sections: (t, v) => [
        ['Context', `${t.facts[0]} This note records why it is built this way.`],
        [
          'Decision',
          `We chose ${t.system} in ${2019 + (v.count % 5)} because it fit our Kubernetes platform. ${t.facts[1]}`,
        ],
        [
          'Consequences',
          `${t.facts[2]} Revisit this decision if the team grows past ${v.count}0 engineers.`,
        ],
      ],
    },
    {
      key: 'checklist',
      title: (t) => `${t.title} Checklist`,
      tags: ['checklist'],
      sections: (t, v) => [
        ['Before', `Read the ${t.title} guidelines. ${t.facts[0]}`],
        ['During', `${t.facts[1]} Keep notes in the ticket.`],
        ['After', `${t.facts[2]} Close the ticket within ${v.days} days.`],
      ],
    },
    {
      key: 'postmortem',
      title: (t) =>
        `Postmortem: ${t.title} Outage ${2023 + (t.key.length % 2)}-0${(t.key.length % 9) + 1}`,
      tags: ['postmortem', 'incidents'],
      sections: (t, v) => [
        [
          'Summary',
          `For ${v.count}0 minutes, ${t.name} was degraded and customers saw errors. No data was lost.`,
        ],
        ['Root cause', `A configuration change skipped review. ${t.facts[1]}`],
        ['Action items', `${t.facts[2]} ${v.person} owns the follow-up, due in ${v.weeks} weeks.`],
      ],
    },
  ],
}
