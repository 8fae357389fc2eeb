/**
 * Every contract-violation rule the dialect adapters report, with a one-line explanation the
 * UI and CLI can show next to the rule id. Ids are stable: tests, filters and saved reports
 * refer to them.
 */
export const VIOLATION_RULES = {
  missing_field: 'A field the family contract requires is absent, null or empty.',
  wrong_type: 'A field has the wrong JSON type (e.g. a number where a string is required).',
  invalid_value: 'A field has a value outside the set or range the contract allows.',
  score_not_number: 'A score is present but is not a finite number; the hit keeps no score.',
  too_many_segments: 'More segments than the contract allows (spec 000: at most 20).',
  headline_too_long: 'A headline longer than the contract allows (spec 000: up to 10 words).',
  missing_resource_id: 'A hit or citation without `resourceId` (specs 001/002 require it).',
  duplicate_id: 'Two hits in one reply share an id.',
  unparsable_json: 'A text block that must hold JSON does not parse.',
  missing_content: 'No text block where the family sends its JSON reply.',
  unexpected_envelope: 'The reply is not shaped as the family sends it (wrong top-level shape).',
  unknown_status: 'A status other than the values the contract defines.',
  invalid_base64: 'An artifact whose `b64` is not valid base64.',
} as const

export type ViolationRule = keyof typeof VIOLATION_RULES

export function isViolationRule(value: unknown): value is ViolationRule {
  return typeof value === 'string' && Object.hasOwn(VIOLATION_RULES, value)
}
