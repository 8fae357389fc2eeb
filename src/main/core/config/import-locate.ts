import { findNodeAtOffset, parseTree, type JSONPath, type Node } from 'jsonc-parser'
import {
  formatPath,
  keyOf,
  positionOf,
  valueOf,
  type RegistryDocument,
} from '#shared/config/document'
import type { Diagnostic } from '#shared/model/registry'

/** Imported field names that the conversion renames. */
const RENAMED: Record<string, string> = { type: 'transport', disabled: 'enabled' }

/**
 * Moves a diagnostic found in the merged registry text onto the imported file: the same field
 * of the same server there (or the server's key when the field is not in the imported file),
 * with that file's name, path, line and column.
 */
export function locateInImport(
  diagnostic: Diagnostic,
  merged: { text: string; serverPath: string },
  doc: RegistryDocument,
  id: string,
): Diagnostic {
  const entry = doc.entries.find((e) => e.id === id)
  if (!entry) return diagnostic
  const rest = diagnostic.path.slice(merged.serverPath.length)
  const base = [...doc.prefix, id]
  const wanted = formatPath(base) + rest
  const onKey = pointsAtKey(merged.text, diagnostic)
  let found: { node: Node; path: JSONPath } = { node: entry.keyNode, path: base }
  walk(
    entry.valueNode,
    base,
    (node, key, path) => {
      if (formatPath(path) === wanted) found = { node: onKey && key ? key : node, path }
    },
    true,
  )
  const { line, column } = positionOf(doc, found.node.offset)
  const where = formatPath(found.path)
  const text = diagnostic.message
    .replace(/ \(line \d+, col \d+\)$/, '')
    .replace(diagnostic.path ? `${diagnostic.path}: ` : '', '')
  return {
    ...diagnostic,
    file: doc.file,
    path: where,
    line,
    column,
    message: `${where}: ${text} (line ${line}, col ${column})`,
  }
}

/** Whether the diagnostic points at a property's key (`unknown_field`) rather than its value. */
function pointsAtKey(text: string, diagnostic: Diagnostic): boolean {
  const root = parseTree(text)
  if (!root) return false
  const lines = text.split('\n')
  let offset = diagnostic.column - 1
  for (let i = 0; i < diagnostic.line - 1; i++) offset += lines[i]!.length + 1
  const node = findNodeAtOffset(root, offset)
  return node?.parent?.type === 'property' && node.parent.children?.[0] === node
}

/** Visits every value under `node` with its key and path (an entry's own fields renamed). */
function walk(
  node: Node,
  path: JSONPath,
  visit: (node: Node, key: Node | undefined, path: JSONPath) => void,
  entryLevel = false,
): void {
  for (const [index, child] of (node.children ?? []).entries()) {
    if (node.type === 'object') {
      const key = keyOf(child)
      const value = valueOf(child)
      if (!key || !value) continue
      const name = String(key.value)
      const childPath = [...path, (entryLevel && RENAMED[name]) || name]
      visit(value, key, childPath)
      walk(value, childPath, visit)
    } else if (node.type === 'array') {
      visit(child, undefined, [...path, index])
      walk(child, [...path, index], visit)
    }
  }
}
