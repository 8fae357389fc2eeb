import type { z } from 'zod'

/** Turns zod issues into short messages a person can act on, without echoing secret values. */

type Issue = z.core.$ZodIssue
type Segment = string | number

/** One problem of a value, with its path relative to the validated entry. */
export interface LocatedIssue {
  path: Segment[]
  /** `invalid_enum`, `invalid_type` or `invalid_value`. */
  rule: string
  text: string
}

/** Fields whose values may hold credentials: their values are never repeated in messages. */
const SECRET_FIELDS = new Set(['headers', 'env', 'url'])

function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let value = root
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string | number, unknown>)[segment]
  }
  return value
}

/** "an array", "a whole number", …: a value's type as a message says it. */
function typeName(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : 'a number'
  return `a ${typeof value}`
}

/** The value as a person would recognise it, unless it may be a secret. */
function show(value: unknown, path: readonly Segment[]): string {
  const secret = path.some((segment) => typeof segment === 'string' && SECRET_FIELDS.has(segment))
  if (typeof value === 'string' && !secret) {
    return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`
  }
  // JSON like 1e400 parses to Infinity.
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large to represent'
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return typeName(value)
}

/** "a, b or c". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  record: 'an object',
}

function describe(issue: Issue, path: Segment[], root: unknown): LocatedIssue[] {
  return describeText(issue, path, root).map((located) => ({
    ...located,
    rule:
      issue.code === 'invalid_value'
        ? 'invalid_enum'
        : issue.code === 'invalid_type'
          ? 'invalid_type'
          : (located.rule ?? 'invalid_value'),
  }))
}

function describeText(
  issue: Issue,
  path: Segment[],
  root: unknown,
): Array<Omit<LocatedIssue, 'rule'> & { rule?: string }> {
  const value = valueAt(root, path)
  switch (issue.code) {
    case 'invalid_value':
      return [
        { path, text: `expected ${orList(issue.values.map(String))}, got ${show(value, path)}` },
      ]
    case 'invalid_type': {
      const expected = EXPECTED[issue.expected] ?? issue.expected
      return [{ path, text: `expected ${expected}, got ${show(value, path)}` }]
    }
    case 'too_small':
      if (issue.origin === 'string') return [{ path, text: 'must not be empty' }]
      if (issue.origin === 'array')
        return [{ path, text: `needs at least ${issue.minimum} item(s)` }]
      return [
        {
          path,
          text: `expected a number ${issue.inclusive ? 'of at least' : 'greater than'} ${issue.minimum}, got ${show(value, path)}`,
        },
      ]
    case 'too_big':
      return [
        {
          path,
          text: `expected ${issue.origin === 'number' ? 'a number of ' : ''}at most ${issue.maximum}${issue.origin === 'string' ? ' characters' : ''}, got ${show(value, path)}`,
        },
      ]
    case 'invalid_union':
      return describeUnion(issue, path, root)
    // Zod's own words say these well enough.
    case 'custom':
    case 'invalid_element':
    case 'invalid_format':
    case 'invalid_key':
    case 'not_multiple_of':
    case 'unrecognized_keys':
      return [{ path, text: issue.message }]
  }
}

/** Reports the branch that matches the value's type; else lists what each branch expects. */
function describeUnion(
  issue: z.core.$ZodIssueInvalidUnion,
  path: Segment[],
  root: unknown,
): LocatedIssue[] {
  // An object is of the wrong type for a branch of plain values (an enum) as well.
  const isObject = typeof valueAt(root, path) === 'object'
  const wrongType = (branch: readonly Issue[]): boolean =>
    branch.some(
      (inner) =>
        inner.path.length === 0 &&
        (inner.code === 'invalid_type' || (inner.code === 'invalid_value' && isObject)),
    )
  const matching = issue.errors.find((branch) => !wrongType(branch))
  if (matching) {
    return matching.flatMap((inner) =>
      describe(inner, [...path, ...(inner.path as Segment[])], root),
    )
  }
  const expected = issue.errors.flatMap((branch) =>
    branch.map((inner) =>
      inner.code === 'invalid_type' ? (EXPECTED[inner.expected] ?? inner.expected) : inner.message,
    ),
  )
  const got = show(valueAt(root, path), path)
  return [{ path, rule: 'invalid_type', text: `expected ${orList(expected)}, got ${got}` }]
}

/** Every issue of a failed parse, as located messages (`path` relative to the parsed value). */
export function describeIssues(issues: readonly Issue[], root: unknown): LocatedIssue[] {
  return issues.flatMap((issue) => describe(issue, issue.path as Segment[], root))
}

/** Edit distance, for "did you mean" hints. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length]!
}
