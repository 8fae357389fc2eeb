/** The forms servers are waiting on, as the elicitation dialog shows them. */
export const elicitKeys = { pending: () => ['elicit', 'pending'] as const }
