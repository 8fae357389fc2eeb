import { z } from 'zod'
import type { GoldenSet } from './evaluation'
import { MAX_EXTRA_PHRASES } from './operations'

/** Limits that keep a set (and every run of it) a reasonable size. */
export const GOLDEN_SET_LIMITS = {
  queries: 5000,
  judgmentsPerQuery: 1000,
  phrases: MAX_EXTRA_PHRASES,
  text: 4000,
} as const

/** A set's or a query's id: file-name and TREC safe (no whitespace, no path separators). */
export const evalIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][\w.-]{0,127}$/, 'letters, digits, dot, dash or underscore, up to 128')

/** A run's id: its file name in the data folder (no dots, so it never collides with a sidecar). */
export const runIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][\w-]{0,127}$/, 'letters, digits, dash or underscore, up to 128')

const profileIdSchema = z.string().min(1).max(128)

export const gradeSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)])

/** The document identity of the merged list (`dedupeKey`): `uri:…` or `id:…`. */
export const docKeySchema = z
  .string()
  .min(4)
  .max(8192)
  .regex(/^(uri|id):/, 'a document key starts with "uri:" or "id:" (the merged list identity)')

export const judgmentSchema = z.object({
  docKey: docKeySchema,
  aliases: z.array(docKeySchema).max(50).optional(),
  grade: gradeSchema.describe('0 not relevant, 1 relevant, 2 highly relevant, 3 perfect'),
  title: z.string().max(1000).optional(),
  uri: z.string().max(8192).optional(),
})

export const selectionSchema = z.record(
  z.string().min(1).max(256),
  z.array(z.string().min(1).max(1024)).max(1000),
)

export const evalQuerySchema = z.object({
  id: evalIdSchema,
  query: z
    .string()
    .max(GOLDEN_SET_LIMITS.text)
    .refine((text) => text.trim() !== '', 'the query is empty'),
  phrases: z
    .array(z.string().max(GOLDEN_SET_LIMITS.text))
    .max(GOLDEN_SET_LIMITS.phrases)
    .optional(),
  profileId: profileIdSchema.optional(),
  sources: selectionSchema.optional(),
  judgments: z
    .array(judgmentSchema)
    .max(GOLDEN_SET_LIMITS.judgmentsPerQuery)
    .refine((judgments) => {
      const keys = judgments.flatMap((j) => [j.docKey, ...(j.aliases ?? [])])
      return new Set(keys).size === keys.length
    }, 'a document (by its key or an alias) is judged at most once per query'),
  notes: z.string().max(GOLDEN_SET_LIMITS.text).optional(),
})

export const goldenSetSchema = z.object({
  $schema: z.string().optional(),
  version: z.literal(1),
  id: evalIdSchema,
  name: z.string().trim().min(1).max(200),
  description: z.string().max(GOLDEN_SET_LIMITS.text).optional(),
  updatedAt: z.string().max(64).optional(),
  queries: z
    .array(evalQuerySchema)
    .max(GOLDEN_SET_LIMITS.queries)
    .refine(
      (queries) => new Set(queries.map((q) => q.id)).size === queries.length,
      'query ids are unique within a set',
    ),
})

// The schema's output is the model's GoldenSet (plus the optional $schema pointer).
const _sameShape: (parsed: z.output<typeof goldenSetSchema>) => GoldenSet = (parsed) => parsed
void _sameShape

/** The JSON Schema of a golden set file, generated from the schema the console validates with. */
export function goldenSetJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(goldenSetSchema, { io: 'input' })
  return { ...schema, title: 'RAG Console golden set (retrieval evaluation)' }
}
