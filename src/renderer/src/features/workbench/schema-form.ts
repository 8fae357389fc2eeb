/**
 * A form generated from a tool's JSON Schema: the schema becomes a tree of fields, a person's
 * input a tree of drafts, and {@link collect} turns the drafts into the tool's arguments or
 * names what is wrong (JSON pointers, as `workbench:validate` does). What a form cannot express
 * (`oneOf`/`anyOf` of several shapes, unknown types) falls back to a JSON text field.
 */

export type Schema = Record<string, unknown>

interface Common {
  /** The property name, or the item index as text. */
  name: string
  title: string
  description?: string
  required: boolean
  /** `null` is allowed (`type: [..., "null"]`, `nullable: true`, `anyOf` with `{type: null}`). */
  nullable: boolean
  default?: unknown
}

export type FormNode =
  | (Common & { kind: 'string' | 'number' | 'integer' })
  | (Common & { kind: 'boolean' })
  | (Common & { kind: 'enum'; options: unknown[] })
  | (Common & { kind: 'object'; fields: FormNode[]; closed: boolean })
  | (Common & { kind: 'array'; items: FormNode; minItems: number })
  /** Anything else: typed as JSON. `schema` is kept for completion. */
  | (Common & { kind: 'json'; schema: Schema })

/** A node with one control of its own (not a group of fields or items). */
export type LeafNode = Exclude<FormNode, { kind: 'object' | 'array' }>

/** A node whose control is typed text. */
type TextNode = Exclude<LeafNode, { kind: 'boolean' }>

/** What a person entered for one node. */
export type Draft =
  | { t: 'text'; text: string }
  | { t: 'bool'; value: boolean | undefined }
  | { t: 'null' }
  | { t: 'object'; fields: Record<string, Draft> }
  | { t: 'array'; items: Draft[] }

export interface Problem {
  path: string
  message: string
}

const MAX_DEPTH = 12

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Follows local `$ref`s (`#/$defs/x`, `#/definitions/x`); an unknown or cyclic one stays. */
function deref(schema: Schema, root: Schema): Schema {
  let current = schema
  for (let guard = 0; typeof current.$ref === 'string' && guard < 16; guard++) {
    const ref = current.$ref
    if (!ref.startsWith('#/')) return current
    let target: unknown = root
    for (const part of ref.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~')
      target = isObject(target) ? target[key] : undefined
    }
    if (!isObject(target)) return current
    const { $ref: _ref, ...rest } = current
    current = { ...target, ...rest }
  }
  return current
}

/** The schema's types, without `null`, and whether `null` was among them. */
function typesOf(schema: Schema): { types: string[]; nullable: boolean } {
  const raw = schema.type
  const list = Array.isArray(raw) ? raw.filter((t) => typeof t === 'string') : []
  if (typeof raw === 'string') list.push(raw)
  return {
    types: list.filter((t) => t !== 'null'),
    nullable: list.includes('null') || schema.nullable === true,
  }
}

/** `anyOf`/`oneOf` of one shape and `null` is that shape, nullable; anything else is JSON. */
function unwrapUnion(schema: Schema, root: Schema): { schema: Schema; nullable: boolean } | null {
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : schema.oneOf
  if (!Array.isArray(union)) return { schema, nullable: false }
  const branches = union.filter(isObject).map((branch) => deref(branch, root))
  const shapes = branches.filter((branch) => branch.type !== 'null')
  if (shapes.length !== 1 || branches.length !== union.length) return null
  const { anyOf: _a, oneOf: _o, ...rest } = schema
  return { schema: { ...rest, ...shapes[0] }, nullable: shapes.length < branches.length }
}

/** The form for a schema; the tool's `inputSchema` gives the root object. */
export function formOf(schema: unknown, name = '', required = true): FormNode {
  const root = isObject(schema) ? schema : {}
  return node(root, root, name, required, 0)
}

function node(raw: Schema, root: Schema, name: string, required: boolean, depth: number): FormNode {
  const derefed = deref(raw, root)
  const unwrapped = unwrapUnion(derefed, root)
  const schema = unwrapped?.schema ?? derefed
  const { types, nullable } = typesOf(schema)
  const common: Common = {
    name,
    title: typeof schema.title === 'string' ? schema.title : name,
    required,
    nullable: nullable || (unwrapped?.nullable ?? false),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    ...('default' in schema ? { default: schema.default } : {}),
  }
  // Completion in the JSON editor follows `$ref`s into the root's definitions.
  const defs = { $defs: root.$defs, definitions: root.definitions }
  const json = (): FormNode => ({ ...common, kind: 'json', schema: { ...defs, ...schema } })
  if (!unwrapped || depth > MAX_DEPTH) return json()
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.filter((value) => value !== null)
    return {
      ...common,
      nullable: common.nullable || options.length < schema.enum.length,
      kind: 'enum',
      options,
    }
  }
  if ('const' in schema) return { ...common, kind: 'enum', options: [schema.const] }
  const type =
    types.length === 1 ? types[0] : types.length === 0 && schema.properties ? 'object' : ''
  switch (type) {
    case 'string':
    case 'number':
    case 'integer':
      return { ...common, kind: type }
    case 'boolean':
      return { ...common, kind: 'boolean' }
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {}
      const needed = Array.isArray(schema.required) ? schema.required : []
      return {
        ...common,
        kind: 'object',
        closed: Object.keys(properties).length > 0 || schema.additionalProperties === false,
        fields: Object.entries(properties)
          .filter((entry): entry is [string, Schema] => isObject(entry[1]))
          .map(([key, sub]) => node(sub, root, key, needed.includes(key), depth + 1)),
      }
    }
    case 'array':
      if (!isObject(schema.items)) return json()
      return {
        ...common,
        kind: 'array',
        items: node(schema.items, root, '', true, depth + 1),
        minItems: typeof schema.minItems === 'number' ? schema.minItems : 0,
      }
    // No single type (none, or several), or one a form cannot express ("null", unknown words).
    case undefined:
    default:
      return json()
  }
}

/** The draft of a value (a default, a saved request's argument) for a node. */
export function draftOf(form: FormNode, value: unknown): Draft {
  if (value === null && form.nullable) return { t: 'null' }
  switch (form.kind) {
    case 'boolean':
      return { t: 'bool', value: typeof value === 'boolean' ? value : undefined }
    case 'enum': {
      const index = form.options.findIndex((o) => JSON.stringify(o) === JSON.stringify(value))
      return { t: 'text', text: index < 0 ? '' : String(index) }
    }
    case 'object': {
      const given = isObject(value) ? value : {}
      const fields: Record<string, Draft> = {}
      for (const field of form.fields) {
        fields[field.name] = draftOf(field, field.name in given ? given[field.name] : field.default)
      }
      return { t: 'object', fields }
    }
    case 'array': {
      const given = Array.isArray(value) ? value : []
      const items = given.map((item) => draftOf(form.items, item))
      while (items.length < form.minItems) items.push(draftOf(form.items, form.items.default))
      return { t: 'array', items }
    }
    case 'json':
      return { t: 'text', text: value === undefined ? '' : JSON.stringify(value, null, 2) }
    case 'string':
    case 'number':
    case 'integer':
      return { t: 'text', text: value === undefined || value === null ? '' : String(value) }
  }
}

/** A fresh draft: defaults filled in, nothing else. */
export const emptyDraft = (form: FormNode): Draft => draftOf(form, form.default)

const pointer = (path: string, name: string): string =>
  `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`

/**
 * The value the drafts make, or `undefined` for an optional field left empty, and what is
 * wrong with them. Only the form's own checks: the core validates against the whole schema.
 */
export function collect(
  form: FormNode,
  draft: Draft,
  path = '',
): { value: unknown; problems: Problem[] } {
  const problems: Problem[] = []
  const value = walk(form, draft, path, problems)
  return { value, problems }
}

function walk(form: FormNode, draft: Draft, path: string, problems: Problem[]): unknown {
  const missing = (): undefined => {
    if (form.required) problems.push({ path, message: 'is required' })
    return undefined
  }
  if (draft.t === 'null') return null
  switch (form.kind) {
    case 'boolean':
      return draft.t === 'bool' && draft.value !== undefined ? draft.value : missing()
    case 'object': {
      const fields = draft.t === 'object' ? draft.fields : {}
      const out: Record<string, unknown> = {}
      for (const field of form.fields) {
        const sub = fields[field.name] ?? emptyDraft(field)
        const value = walk(field, sub, pointer(path, field.name), problems)
        if (value !== undefined) out[field.name] = value
      }
      return out
    }
    case 'array': {
      const items = draft.t === 'array' ? draft.items : []
      if (items.length < form.minItems) {
        problems.push({ path, message: `needs at least ${form.minItems} item(s)` })
      }
      return items.map((item, index) => walk(form.items, item, `${path}/${index}`, problems))
    }
    case 'string':
    case 'number':
    case 'integer':
    case 'enum':
    case 'json': {
      const text = draft.t === 'text' ? draft.text : ''
      if (text.trim() === '') return missing()
      return parseText(form, text, path, problems)
    }
  }
}

function parseText(form: TextNode, text: string, path: string, problems: Problem[]): unknown {
  switch (form.kind) {
    case 'string':
      return text
    case 'enum':
      return form.options[Number(text)]
    case 'number':
    case 'integer': {
      const value = Number(text.trim())
      if (!Number.isFinite(value)) problems.push({ path, message: 'must be a number' })
      else if (form.kind === 'integer' && !Number.isInteger(value)) {
        problems.push({ path, message: 'must be a whole number' })
      }
      return value
    }
    case 'json':
      try {
        return JSON.parse(text) as unknown
      } catch (error) {
        problems.push({ path, message: `is not valid JSON: ${(error as Error).message}` })
        return undefined
      }
  }
}

/** The arguments of a call, for the root object of a tool's input schema. */
export function argumentsOf(form: FormNode, draft: Draft): { args: Schema; problems: Problem[] } {
  const { value, problems } = collect(form, draft)
  return { args: isObject(value) ? value : {}, problems }
}

/**
 * The form without the root properties the console fills in itself (rag-tools-v1's
 * `username`): they are neither shown nor required.
 */
export function withoutFields(form: FormNode, names: readonly string[]): FormNode {
  if (form.kind !== 'object' || names.length === 0) return form
  return { ...form, fields: form.fields.filter((field) => !names.includes(field.name)) }
}
