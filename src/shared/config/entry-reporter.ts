import { findNodeAtLocation, getNodeValue, type Node } from 'jsonc-parser'
import type { Diagnostic } from '../model/registry'
import {
  diagnosticAt,
  keyOf,
  offsetInString,
  valueOf,
  type EntryNode,
  type RegistryDocument,
} from './document'

type Segment = string | number

/** Where one field of a merged entry was written: its file and property node. */
export interface FieldSource {
  doc: RegistryDocument
  property: Node
}

/**
 * One server id merged over the layered files: each field comes from the highest-precedence
 * file that sets it (a shallow, field-level merge).
 */
export interface MergedEntry {
  id: string
  value: Record<string, unknown>
  fields: Map<string, FieldSource>
  /** The highest-precedence file that defines the entry. */
  top: { doc: RegistryDocument; entry: EntryNode }
}

/** Merges the entries of documents given lowest precedence first; ids keep first-seen order. */
export function mergeEntries(docs: readonly RegistryDocument[]): MergedEntry[] {
  const merged = new Map<string, MergedEntry>()
  for (const doc of docs) {
    for (const entry of doc.entries) {
      let target = merged.get(entry.id)
      if (!target) {
        target = { id: entry.id, value: {}, fields: new Map(), top: { doc, entry } }
        merged.set(entry.id, target)
      }
      target.top = { doc, entry }
      for (const property of entry.valueNode.children ?? []) {
        const key = keyOf(property)
        const value = valueOf(property)
        if (!key || !value) continue
        target.value[String(key.value)] = getNodeValue(value)
        target.fields.set(String(key.value), { doc, property })
      }
    }
  }
  return [...merged.values()]
}

/** Locates diagnostics about one merged entry in the file where the offending value is. */
export class EntryReporter {
  constructor(
    readonly entry: MergedEntry,
    private readonly out: Diagnostic[],
  ) {}

  /** The document a field came from (the entry's top layer when it is not set). */
  docOf(field: string): RegistryDocument {
    return this.entry.fields.get(field)?.doc ?? this.entry.top.doc
  }

  /**
   * Reports at `path` (relative to the entry). Points at the value, or at the key with
   * `on: 'key'`; a path that does not exist points at its nearest written ancestor.
   */
  report(
    path: readonly Segment[],
    severity: Diagnostic['severity'],
    rule: string,
    text: string,
    options: { on?: 'key' | 'value'; index?: number } = {},
  ): void {
    const { doc, node, exact } = this.locate(path)
    let at: Node | number = node
    if (exact && options.on === 'key') {
      const property = node.parent?.type === 'property' ? node.parent : undefined
      at = (property && keyOf(property)) ?? node
    } else if (exact && options.index !== undefined && node.type === 'string') {
      at = offsetInString(doc, node, options.index)
    }
    const fullPath = [...doc.prefix, this.entry.id, ...path]
    this.out.push(diagnosticAt(doc, at, fullPath, severity, rule, text))
  }

  private locate(path: readonly Segment[]): {
    doc: RegistryDocument
    node: Node
    exact: boolean
  } {
    const [field, ...rest] = path
    const source = field === undefined ? undefined : this.entry.fields.get(String(field))
    if (!source) {
      return { doc: this.entry.top.doc, node: this.entry.top.entry.keyNode, exact: false }
    }
    let node = valueOf(source.property) ?? source.property
    for (const segment of rest) {
      const child = findNodeAtLocation(node, [segment])
      if (!child) return { doc: source.doc, node, exact: false }
      node = child
    }
    return { doc: source.doc, node, exact: true }
  }
}
