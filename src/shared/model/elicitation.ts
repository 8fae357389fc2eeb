/**
 * Elicitation forms (`elicitation/create`, form mode): what a server may ask, checked on both
 * sides: by the pool before and after a person answers, by the app's form as they type.
 */
/** One choice of an enum field: the value sent back and what a person reads. */
export interface ElicitOption {
  value: string
  label: string
}

interface FieldBase {
  name: string
  title?: string
  description?: string
  required: boolean
}

/**
 * One property of an elicitation's requested schema, as the spec allows them: a flat object of
 * primitives (string, number / integer, boolean), single-select enums and multi-select enums.
 */
export type ElicitField = FieldBase &
  (
    | {
        kind: 'string'
        default?: string
        format?: 'email' | 'uri' | 'date' | 'date-time'
        minLength?: number
        maxLength?: number
      }
    | { kind: 'number'; integer: boolean; default?: number; minimum?: number; maximum?: number }
    | { kind: 'boolean'; default?: boolean }
    | { kind: 'enum'; options: ElicitOption[]; default?: string }
    | {
        kind: 'multi'
        options: ElicitOption[]
        default?: string[]
        minItems?: number
        maxItems?: number
      }
  )

/** What a form answer holds: one value per answered field. */
export type ElicitContent = Record<string, string | number | boolean | string[]>

/** A form a server asks a person to fill in (`elicitation/create`, form mode), checked. */
export interface ElicitationRequest {
  serverId: string
  message: string
  fields: ElicitField[]
}

/** What the person did with the form. */
export type ElicitationAnswer =
  { action: 'accept'; content: ElicitContent } | { action: 'decline' } | { action: 'cancel' }

const FORMATS = ['email', 'uri', 'date', 'date-time'] as const

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string }

/**
 * Reads an elicitation's `requestedSchema` into fields, or says what makes it unusable (nested
 * objects, arrays of anything but enum strings, unknown types, defaults of the wrong type).
 */
export function parseForm(schema: unknown): Parsed<ElicitField[]> {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) {
    return fail('requestedSchema must be an object schema with "properties"')
  }
  const required = schema.required ?? []
  if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
    return fail('"required" must be an array of property names')
  }
  const properties = schema.properties
  const fields: ElicitField[] = []
  for (const [name, property] of Object.entries(properties)) {
    const field = parseField(name, property, required.includes(name))
    if (typeof field === 'string') return fail(`property "${name}": ${field}`)
    const problem = field.default === undefined ? undefined : problemOf(field, field.default)
    if (problem) return fail(`property "${name}": its default ${problem}`)
    fields.push(field)
  }
  const unknown = required.filter((name) => !(name in properties))
  if (unknown.length > 0) return fail(`"required" names unknown properties: ${unknown.join(', ')}`)
  return { ok: true, value: fields }
}

function parseField(name: string, property: unknown, required: boolean): ElicitField | string {
  if (!isObject(property)) return 'must be a schema object'
  const base: FieldBase = { name, required }
  if (typeof property.title === 'string') base.title = property.title
  if (typeof property.description === 'string') base.description = property.description
  const { type } = property
  const bounds = (keys: string[]): Record<string, number> =>
    Object.fromEntries(keys.flatMap((k) => (isNumber(property[k]) ? [[k, property[k]]] : [])))
  if (type === 'string') {
    const options = optionsOf(property)
    if (options) return withDefault({ ...base, kind: 'enum', options }, property.default)
    const format = property.format
    if (format !== undefined && !FORMATS.includes(format as (typeof FORMATS)[number])) {
      return `unsupported string format ${JSON.stringify(format)}`
    }
    return withDefault(
      {
        ...base,
        kind: 'string',
        ...(format ? { format: format as (typeof FORMATS)[number] } : {}),
        ...bounds(['minLength', 'maxLength']),
      },
      property.default,
    )
  }
  if (type === 'number' || type === 'integer') {
    const field = { ...base, kind: 'number', integer: type === 'integer' } as const
    return withDefault({ ...field, ...bounds(['minimum', 'maximum']) }, property.default)
  }
  if (type === 'boolean') return withDefault({ ...base, kind: 'boolean' }, property.default)
  if (type === 'array') {
    const options = isObject(property.items) ? optionsOf(property.items) : undefined
    if (!options) return 'an array must list its choices (items with "enum" or "anyOf" consts)'
    return withDefault(
      { ...base, kind: 'multi', options, ...bounds(['minItems', 'maxItems']) },
      property.default,
    )
  }
  return `type ${JSON.stringify(type)} is not a string, number, integer, boolean or enum array`
}

/** The choices of `enum` (with legacy `enumNames`), `oneOf` or `anyOf` consts; else undefined. */
function optionsOf(schema: Record<string, unknown>): ElicitOption[] | undefined {
  const { enum: values, enumNames } = schema
  if (Array.isArray(values) && values.every((v) => typeof v === 'string')) {
    const names = Array.isArray(enumNames) ? enumNames : []
    return values.map((value, i) => ({
      value,
      label: typeof names[i] === 'string' ? (names[i] as string) : value,
    }))
  }
  const consts = schema.oneOf ?? schema.anyOf
  if (Array.isArray(consts) && consts.every((c) => isObject(c) && typeof c.const === 'string')) {
    return (consts as { const: string; title?: unknown }[]).map((c) => ({
      value: c.const,
      label: typeof c.title === 'string' ? c.title : c.const,
    }))
  }
  return undefined
}

function withDefault<F extends ElicitField>(field: F, value: unknown): F {
  return value === undefined ? field : { ...field, default: value }
}

/** The schema's defaults (SEP-1034): every field that names one. */
export function defaultsOf(fields: readonly ElicitField[]): ElicitContent {
  const content: ElicitContent = {}
  for (const field of fields) if (field.default !== undefined) content[field.name] = field.default
  return content
}

/** Why an accepted answer does not fit the form (the first problem), or undefined. */
export function checkAnswer(fields: readonly ElicitField[], content: unknown): string | undefined {
  if (!isObject(content)) return 'the answer is not an object'
  for (const field of fields) {
    const value = content[field.name]
    if (value === undefined) {
      if (field.required) return `"${field.name}" is required`
      continue
    }
    const problem = problemOf(field, value)
    if (problem) return `"${field.name}" ${problem}`
  }
  const unknown = Object.keys(content).filter((name) => !fields.some((f) => f.name === name))
  return unknown.length > 0 ? `the form has no field ${unknown.join(', ')}` : undefined
}

/** What is wrong with a value for a field, or undefined when it fits. */
export function problemOf(field: ElicitField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'string': {
      if (typeof value !== 'string') return 'must be text'
      if (field.minLength !== undefined && value.length < field.minLength) {
        return `must be at least ${field.minLength} characters`
      }
      if (field.maxLength !== undefined && value.length > field.maxLength) {
        return `must be at most ${field.maxLength} characters`
      }
      return field.format && !FORMAT_CHECKS[field.format](value)
        ? `must be a valid ${field.format}`
        : undefined
    }
    case 'number':
      if (!isNumber(value)) return 'must be a number'
      if (field.integer && !Number.isInteger(value)) return 'must be a whole number'
      if (field.minimum !== undefined && value < field.minimum) return `must be ≥ ${field.minimum}`
      if (field.maximum !== undefined && value > field.maximum) return `must be ≤ ${field.maximum}`
      return undefined
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false'
    case 'enum':
      return field.options.some((o) => o.value === value) ? undefined : `must be ${choices(field)}`
    case 'multi': {
      if (!Array.isArray(value)) return 'must be a list'
      if (!value.every((v) => field.options.some((o) => o.value === v))) {
        return `may hold only ${choices(field)}`
      }
      if (field.minItems !== undefined && value.length < field.minItems) {
        return `needs at least ${field.minItems} choice(s)`
      }
      if (field.maxItems !== undefined && value.length > field.maxItems) {
        return `takes at most ${field.maxItems} choice(s)`
      }
      return undefined
    }
  }
}

const FORMAT_CHECKS: Record<(typeof FORMATS)[number], (value: string) => boolean> = {
  email: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value),
  uri: (value) => URL.canParse(value),
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)),
  'date-time': (value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)),
}

function choices(field: { options: ElicitOption[] }): string {
  return `one of ${field.options.map((o) => JSON.stringify(o.value)).join(', ')}`
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function fail<T>(error: string): Parsed<T> {
  return { ok: false, error }
}
