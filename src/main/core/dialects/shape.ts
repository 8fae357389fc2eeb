import type { Violation } from '#shared/model/rag'
import type { ViolationRule } from '#shared/model/violations'

/**
 * Reading untrusted JSON without throwing: every accessor returns a typed value or undefined
 * and records what it found wrong as a {@link Violation} with a path into the raw reply.
 */

export type JsonRecord = Record<string, unknown>

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** JSON type name for messages: `null`, `array`, `object`, `string`, `number`, `boolean`, … */
export function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** `a` + `b` → `a.b`; `a` + 3 → `a[3]`; keys that are not identifiers are quoted. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return base ? `${base}.${key}` : key
  return `${base}[${JSON.stringify(key)}]`
}

const MAX_VALUE_CHARS = 300

/** Keeps a violation's offending value small: long strings and big structures are clipped. */
export function boundValue(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value
  }
  if (typeof value === 'object' && value !== null) {
    let text: string
    try {
      text = JSON.stringify(value) ?? ''
    } catch {
      return `[unserialisable ${jsonType(value)}]`
    }
    return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : value
  }
  return value
}

/** Collects the violations of one reply. */
export class Violations {
  readonly list: Violation[] = []

  add(rule: ViolationRule, path: string, message: string, value?: unknown): Violation {
    const violation: Violation = { rule, path, message }
    if (value !== undefined) violation.value = boundValue(value)
    this.list.push(violation)
    return violation
  }

  /** Violations added since `mark` (a previous `list.length`): the ones about one hit. */
  since(mark: number): Violation[] {
    return this.list.slice(mark)
  }
}

export interface FieldOptions {
  /** Absent, null or empty is a `missing_field` violation. */
  required?: boolean
  /** `null` counts as absent without a violation (spec 000's `refreshed_url: null`). */
  nullable?: boolean
  /** A required string may be empty (RAGbox's silent `answer: ""`). */
  allowEmpty?: boolean
}

/** Typed accessors over one JSON object at a known path. */
export class Fields {
  constructor(
    readonly obj: JsonRecord,
    readonly path: string,
    readonly out: Violations,
  ) {}

  at(key: string | number): string {
    return joinPath(this.path, key)
  }

  has(key: string): boolean {
    return this.obj[key] !== undefined && this.obj[key] !== null
  }

  private read<T>(
    key: string,
    expected: string,
    accept: (value: unknown) => value is T,
    options: FieldOptions,
  ): T | undefined {
    const value = this.obj[key]
    if (value === undefined || (value === null && options.nullable)) {
      if (options.required) this.missing(key)
      return undefined
    }
    if (!accept(value)) {
      if (value === null && options.required) this.missing(key)
      else
        this.out.add(
          'wrong_type',
          this.at(key),
          `expected ${expected}, got ${jsonType(value)}`,
          value,
        )
      return undefined
    }
    return value
  }

  private missing(key: string): void {
    this.out.add('missing_field', this.at(key), `required field \`${key}\` is missing`)
  }

  /** A string; with `required`, an empty or blank string is `missing_field` too. */
  string(key: string, options: FieldOptions = {}): string | undefined {
    const value = this.read(key, 'a string', isString, options)
    if (value !== undefined && options.required && !options.allowEmpty && value.trim() === '') {
      this.out.add('missing_field', this.at(key), `required field \`${key}\` is empty`, value)
      return undefined
    }
    return value
  }

  number(key: string, options: FieldOptions = {}): number | undefined {
    return this.read(key, 'a finite number', isFiniteNumber, options)
  }

  integer(key: string, options: FieldOptions = {}): number | undefined {
    return this.read(key, 'an integer', isInteger, options)
  }

  boolean(key: string, options: FieldOptions = {}): boolean | undefined {
    return this.read(key, 'a boolean', isBoolean, options)
  }

  record(key: string, options: FieldOptions = {}): JsonRecord | undefined {
    return this.read(key, 'an object', isRecord, options)
  }

  array(key: string, options: FieldOptions = {}): unknown[] | undefined {
    return this.read(key, 'an array', Array.isArray, options)
  }

  /** An array of strings; non-string items are reported one by one and dropped. */
  strings(key: string, options: FieldOptions = {}): string[] | undefined {
    const items = this.array(key, options)
    if (!items) return undefined
    const strings: string[] = []
    items.forEach((item, i) => {
      if (typeof item === 'string') strings.push(item)
      else {
        const path = joinPath(this.at(key), i)
        this.out.add('wrong_type', path, `expected a string, got ${jsonType(item)}`, item)
      }
    })
    return strings
  }

  /** A score: kept as the server sent it when it is a finite number, else undefined. */
  score(key: string, options: FieldOptions = {}): number | undefined {
    const value = this.obj[key]
    if (value === undefined || value === null) {
      if (options.required) this.missing(key)
      return undefined
    }
    if (!isFiniteNumber(value)) {
      this.out.add(
        'score_not_number',
        this.at(key),
        `score is ${jsonType(value)}, not a number`,
        value,
      )
      return undefined
    }
    return value
  }

  /** A string from a closed set; any other string is `invalid_value`. */
  oneOf<T extends string>(
    key: string,
    allowed: readonly T[],
    options: FieldOptions = {},
  ): T | undefined {
    const value = this.string(key, options)
    if (value === undefined) return undefined
    if ((allowed as readonly string[]).includes(value)) return value as T
    this.out.add('invalid_value', this.at(key), `expected one of ${allowed.join(', ')}`, value)
    return undefined
  }
}

/**
 * The object at `path`, or undefined with an `unexpected_envelope` (top level) or `wrong_type`
 * violation.
 */
export function expectRecord(
  value: unknown,
  path: string,
  out: Violations,
  what: string,
): JsonRecord | undefined {
  if (isRecord(value)) return value
  const rule: ViolationRule = path === '' ? 'unexpected_envelope' : 'wrong_type'
  out.add(rule, path, `${what} should be an object, got ${jsonType(value)}`, value)
  return undefined
}

/** Visits the objects of an array, reporting (and skipping) items that are not objects. */
export function eachRecord(
  items: unknown[],
  path: string,
  out: Violations,
  visit: (fields: Fields, index: number) => void,
): void {
  items.forEach((item, index) => {
    const itemPath = joinPath(path, index)
    if (!isRecord(item)) {
      out.add('wrong_type', itemPath, `expected an object, got ${jsonType(item)}`, item)
      return
    }
    visit(new Fields(item, itemPath, out), index)
  })
}

function isString(value: unknown): value is string {
  return typeof value === 'string'
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function isInteger(value: unknown): value is number {
  return Number.isInteger(value)
}

function isBoolean(value: unknown): value is boolean {
  return typeof value === 'boolean'
}
