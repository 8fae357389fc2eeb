import { findNodeAtLocation, getLocation, parseTree, type JSONPath } from 'jsonc-parser'

/** The subset of JSON Schema that `resources/rag-mcp.schema.json` uses. */
export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  additionalProperties?: JsonSchema | boolean
  items?: JsonSchema
  enum?: unknown[]
  anyOf?: JsonSchema[]
  $ref?: string
  $defs?: Record<string, JsonSchema>
  description?: string
}

/** One suggestion; `template` is a CodeMirror snippet (`${}` marks where the cursor lands). */
export interface SchemaCompletion {
  label: string
  kind: 'property' | 'enum'
  template: string
  detail?: string
}

/**
 * Suggestions at one position: `wordFrom`–`wordTo` is what the user typed (for filtering),
 * `replaceFrom`–`replaceTo` also covers the quotes that the completion rewrites.
 */
export interface CompletionAt {
  wordFrom: number
  wordTo: number
  replaceFrom: number
  replaceTo: number
  options: SchemaCompletion[]
}

const WORD = /[\w$.-]/

function deref(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema
  for (let guard = 0; current.$ref && guard < 16; guard++) {
    const name = current.$ref.replace(/^#\/\$defs\//, '')
    current = root.$defs?.[name] ?? {}
  }
  return current
}

/** The alternatives a schema stands for, with references and `anyOf` resolved. */
function expand(schema: JsonSchema, root: JsonSchema): JsonSchema[] {
  const resolved = deref(schema, root)
  return resolved.anyOf ? resolved.anyOf.flatMap((option) => expand(option, root)) : [resolved]
}

/** Every schema that may apply at `path` (several where the schema has alternatives). */
export function schemasAt(root: JsonSchema, path: JSONPath): JsonSchema[] {
  let current = expand(root, root)
  for (const segment of path) {
    current = current.flatMap((schema) => {
      if (typeof segment === 'number') return schema.items ? expand(schema.items, root) : []
      const property = schema.properties?.[segment]
      if (property) return expand(property, root)
      const extra = schema.additionalProperties
      return extra && typeof extra === 'object' ? expand(extra, root) : []
    })
  }
  return current
}

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []

function describeSchema(alternatives: JsonSchema[], root: JsonSchema): string {
  const parts = new Set<string>()
  for (const schema of alternatives.flatMap((s) => expand(s, root))) {
    if (schema.enum) parts.add(schema.enum.map((v) => JSON.stringify(v)).join(' | '))
    else for (const type of typesOf(schema)) parts.add(type === 'integer' ? 'number' : type)
  }
  return [...parts].join(' | ')
}

function valueTemplate(alternatives: JsonSchema[], root: JsonSchema): string {
  const types = new Set(alternatives.flatMap((s) => expand(s, root)).flatMap(typesOf))
  if (types.size !== 1) return '${}'
  if (types.has('string')) return '"${}"'
  if (types.has('array')) return '[${}]'
  if (types.has('object')) return '{${}}'
  return '${}'
}

/** The word (and surrounding quotes) at `pos`. */
function tokenAt(text: string, pos: number) {
  let wordFrom = pos
  while (wordFrom > 0 && WORD.test(text[wordFrom - 1]!)) wordFrom--
  let wordTo = pos
  while (wordTo < text.length && WORD.test(text[wordTo]!)) wordTo++
  const quoted = text[wordFrom - 1] === '"'
  const replaceFrom = quoted ? wordFrom - 1 : wordFrom
  const replaceTo = quoted && text[wordTo] === '"' ? wordTo + 1 : wordTo
  return { wordFrom, wordTo, replaceFrom, replaceTo, quoted }
}

/** Keys already present in the object at `path`. */
function existingKeys(text: string, path: JSONPath): Set<string> {
  const tree = parseTree(text)
  const node = tree && (path.length === 0 ? tree : findNodeAtLocation(tree, path))
  const keys = new Set<string>()
  for (const property of node?.type === 'object' ? (node.children ?? []) : []) {
    const key = property.children?.[0]?.value
    if (typeof key === 'string') keys.add(key)
  }
  return keys
}

/**
 * Property names and enum values the schema allows at `pos` of `text`. In rag-mcp.json the
 * keys at the top level are the user's own server ids, so nothing is offered there unless
 * `rootKeys` (a tool's arguments: the root has named properties like any other object).
 */
export function completionsAt(
  text: string,
  pos: number,
  root: JsonSchema,
  rootKeys = false,
): CompletionAt | null {
  const location = getLocation(text, pos)
  const token = tokenAt(text, pos)
  if (location.isAtPropertyKey) {
    const objectPath = location.path.slice(0, -1)
    if (objectPath.length === 0 && !rootKeys) return null
    const typed = text.slice(token.wordFrom, token.wordTo)
    const present = existingKeys(text, objectPath)
    const hasColon = /^\s*:/.test(text.slice(token.replaceTo))
    const options: SchemaCompletion[] = []
    const seen = new Set<string>()
    for (const schema of schemasAt(root, objectPath)) {
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (seen.has(name) || (present.has(name) && name !== typed)) continue
        seen.add(name)
        const value = expand(property, root)
        options.push({
          label: name,
          kind: 'property',
          detail: describeSchema(value, root),
          template: hasColon ? `"${name}"` : `"${name}": ${valueTemplate(value, root)}`,
        })
      }
    }
    return options.length ? { ...token, options } : null
  }

  const options: SchemaCompletion[] = []
  const seen = new Set<string>()
  const add = (value: unknown): void => {
    const literal = JSON.stringify(value)
    if (seen.has(literal)) return
    seen.add(literal)
    options.push({
      label: typeof value === 'string' ? value : literal,
      kind: 'enum',
      template: literal.replace(/\$/g, '\\$'),
    })
  }
  for (const schema of schemasAt(root, location.path)) {
    for (const value of schema.enum ?? []) add(value)
    if (typesOf(schema).includes('boolean')) [true, false].forEach(add)
  }
  return options.length ? { ...token, options } : null
}
