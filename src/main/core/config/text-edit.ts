import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parseTree,
  type Edit,
  type FormattingOptions,
  type JSONPath,
  type Node,
} from 'jsonc-parser'
import { parseRegistryDocument } from '#shared/config/document'

/**
 * Edits of a registry file's text that keep the user's comments, formatting and key order:
 * only the touched value changes, and new properties follow the indentation around them.
 * (jsonc-parser's formatter would re-indent neighbouring lines, so insertions are laid out
 * here; jsonc-parser's `modify` remains the fallback for unusual shapes.)
 */

/** Indentation and line ends as the file already uses them. */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  '
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol }
}

interface Layout {
  text: string
  unit: string
  eol: string
}

/** `["a", "b"]`, `{ "k": 1 }`: one-line JSON as people write it. */
function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
    if (entries.length === 0) return '{}'
    return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`).join(', ')} }`
  }
  return JSON.stringify(value)
}

/** Multi-line JSON at `indent`; short lists of plain values stay on one line. */
function blockJson(value: unknown, indent: string, layout: Layout): string {
  const inner = indent + layout.unit
  if (Array.isArray(value)) {
    const inline = inlineJson(value)
    if (value.every((item) => item === null || typeof item !== 'object') && inline.length <= 60) {
      return inline
    }
    if (value.length === 0) return '[]'
    const items = value.map((item) => `${inner}${blockJson(item, inner, layout)}`)
    return `[${layout.eol}${items.join(`,${layout.eol}`)}${layout.eol}${indent}]`
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
    if (entries.length === 0) return '{}'
    const lines = entries.map(
      ([k, v]) => `${inner}${JSON.stringify(k)}: ${blockJson(v, inner, layout)}`,
    )
    return `{${layout.eol}${lines.join(`,${layout.eol}`)}${layout.eol}${indent}}`
  }
  return JSON.stringify(value)
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1
}

/** Leading whitespace of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0]
}

const sameLine = (text: string, a: number, b: number): boolean =>
  !text.slice(Math.min(a, b), Math.max(a, b)).includes('\n')

/** The edits that insert `"key": value` as the last property of an object node. */
function insertProperty(
  layout: Layout,
  object: Node,
  key: string,
  value: unknown,
  isRoot: boolean,
): Edit[] {
  const { text, unit, eol } = layout
  const properties = object.children ?? []
  const close = object.offset + object.length - 1
  const inline = !isRoot && sameLine(text, object.offset, close)
  const name = JSON.stringify(key)
  if (inline) {
    const last = properties.at(-1)
    return last
      ? [
          {
            offset: last.offset + last.length,
            length: 0,
            content: `, ${name}: ${inlineJson(value)}`,
          },
        ]
      : [{ offset: object.offset + 1, length: 0, content: ` ${name}: ${inlineJson(value)} ` }]
  }
  const last = properties.at(-1)
  if (!last) {
    const outer = lineIndent(text, object.offset)
    const indent = outer + unit
    const tail = sameLine(text, object.offset, close) ? `${eol}${outer}` : ''
    return [
      {
        offset: object.offset + 1,
        length: 0,
        content: `${eol}${indent}${name}: ${blockJson(value, indent, layout)}${tail}`,
      },
    ]
  }
  const before = text.slice(lineStart(text, last.offset), last.offset)
  const indent = /^[ \t]*$/.test(before) ? before : lineIndent(text, object.offset) + unit
  const property = `${name}: ${blockJson(value, indent, layout)}`
  const end = last.offset + last.length
  let lineEnd = text.indexOf('\n', end)
  if (lineEnd < 0) lineEnd = text.length
  if (text[lineEnd - 1] === '\r') lineEnd--
  // Keep a trailing comment (and a trailing comma) on the line they belong to.
  const rest = /^[ \t]*(,?)[ \t]*(\/\/.*|\/\*.*\*\/)?[ \t]*$/.exec(text.slice(end, lineEnd))
  if (rest && close > lineEnd) {
    const trailingComma = rest[1] === ','
    return [
      ...(trailingComma ? [] : [{ offset: end, length: 0, content: ',' }]),
      {
        offset: lineEnd,
        length: 0,
        content: `${eol}${indent}${property}${trailingComma ? ',' : ''}`,
      },
    ]
  }
  return [{ offset: end, length: 0, content: `,${eol}${indent}${property}` }]
}

/** Sets the value at `path` (objects only), creating missing objects on the way. */
export function setValue(text: string, path: JSONPath, value: unknown): string {
  const formatting = formattingOf(text)
  const layout: Layout = {
    text,
    unit: formatting.insertSpaces ? ' '.repeat(formatting.tabSize ?? 2) : '\t',
    eol: formatting.eol ?? '\n',
  }
  const root = parseTree(text, [], { allowTrailingComma: true })
  const fallback = (): string =>
    applyEdits(text, modify(text, path, value, { formattingOptions: formatting }))
  if (root?.type !== 'object') return fallback()
  let node = root
  let depth = 0
  for (; depth < path.length; depth++) {
    const child = findNodeAtLocation(node, [path[depth]!])
    if (!child) break
    node = child
  }
  if (depth === path.length) {
    const parent = node.parent?.parent
    const inline = !parent || sameLine(text, parent.offset, parent.offset + parent.length - 1)
    const content =
      inline || typeof value !== 'object' || value === null
        ? inlineJson(value)
        : blockJson(value, lineIndent(text, node.offset), layout)
    return applyEdits(text, [{ offset: node.offset, length: node.length, content }])
  }
  if (node.type !== 'object' || typeof path[depth] !== 'string') return fallback()
  const nested = path
    .slice(depth + 1)
    .reduceRight<unknown>((inner, key) => ({ [key]: inner }), value)
  return applyEdits(
    text,
    insertProperty(layout, node, path[depth] as string, nested, node === root),
  )
}

/** One value to set: `field` of server `id`, or the whole entry when `field` is absent. */
export interface EntryEdit {
  id: string
  field?: string
  value: unknown
}

/** Applies the edits in the text's form (seed, mcpServers, servers); `''` starts as `{}`. */
export function editEntries(text: string, edits: readonly EntryEdit[]): string {
  let out = text.trim() === '' ? '{}\n' : text
  const prefix = parseRegistryDocument('', out).prefix
  for (const edit of edits) {
    out = setValue(
      out,
      [...prefix, edit.id, ...(edit.field === undefined ? [] : [edit.field])],
      edit.value,
    )
  }
  return out
}

/** Whether the text defines the server (in any form). */
export const definesServer = (text: string, id: string): boolean =>
  parseRegistryDocument('', text).entries.some((entry) => entry.id === id)
