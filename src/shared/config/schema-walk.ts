import type { z } from 'zod'

/** Walks a loose zod schema alongside a value: which fields it does not know, and without them. */

type Segment = string | number

interface SchemaDef {
  type: string
  shape?: Record<string, z.ZodType>
  innerType?: z.ZodType
  element?: z.ZodType
  options?: z.ZodType[]
}

const defOf = (schema: z.ZodType): SchemaDef => schema._zod.def as unknown as SchemaDef

/** The schema of a declared field; a key such as `valueOf` is not one (it is Object's). */
const fieldOf = (shape: Record<string, z.ZodType>, key: string): z.ZodType | undefined =>
  Object.hasOwn(shape, key) ? shape[key] : undefined

/** A JSON object (not an array, not null). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The object member of a union that a plain object would match, or the schema itself. */
function resolve(schema: z.ZodType, value: unknown): SchemaDef {
  let def = defOf(schema)
  while (def.type === 'optional' && def.innerType) def = defOf(def.innerType)
  if (def.type === 'union' && def.options && isPlainObject(value)) {
    const option = def.options.find((candidate) => defOf(candidate).type === 'object')
    if (option) def = defOf(option)
  }
  return def
}

/** A field the schema does not declare, where it is, and what is known there. */
export interface UnknownField {
  path: Segment[]
  /** The field names known at that level, for "did you mean" hints. */
  known: string[]
}

/** Every field of `value` (at any depth) that `schema` does not declare. */
export function unknownFields(
  schema: z.ZodType,
  value: unknown,
  path: Segment[] = [],
): UnknownField[] {
  const def = resolve(schema, value)
  if (def.type === 'object' && def.shape && isPlainObject(value)) {
    const known = Object.keys(def.shape)
    return Object.entries(value).flatMap(([key, child]) => {
      const childSchema = fieldOf(def.shape!, key)
      return childSchema
        ? unknownFields(childSchema, child, [...path, key])
        : [{ path: [...path, key], known }]
    })
  }
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    return value.flatMap((item, index) => unknownFields(def.element!, item, [...path, index]))
  }
  return []
}

/** A copy of a value that passed `schema`, without the fields the schema does not declare. */
export function stripUnknown<T>(schema: z.ZodType, value: T): T {
  const def = resolve(schema, value)
  if (def.type === 'object' && def.shape && isPlainObject(value)) {
    const out: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(value)) {
      const childSchema = fieldOf(def.shape, key)
      if (childSchema) out[key] = stripUnknown(childSchema, child)
    }
    return out as T
  }
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    return value.map((item) => stripUnknown(def.element!, item)) as T
  }
  return value
}
