import {
  createScanner,
  getLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type JSONPath,
  type Node,
  type ParseError,
} from 'jsonc-parser'
import type { Diagnostic } from '../model/registry'
import { serverEntrySchema, vsCodeInputSchema, type VsCodeInput } from './schema'

/**
 * One registry file parsed with positions: comments and trailing commas are accepted, every
 * syntax error is located, and the servers are found in whichever form the file uses.
 */

/** `seed`: top-level map of id → entry; `mcpServers`: Claude Desktop / Cursor; `servers`: VS Code. */
export type RegistryForm = 'seed' | 'mcpServers' | 'servers'

/** One server entry as written in a file. */
export interface EntryNode {
  id: string
  /** The property's key (where "this server" diagnostics point). */
  keyNode: Node
  /** The entry's value; an object unless the file is wrong. */
  valueNode: Node
}

/** A parsed registry file: its text, tree, form, server entries and own problems. */
export interface RegistryDocument {
  /** Absolute path, or a label for text that has no file. */
  file: string
  text: string
  root: Node | undefined
  form: RegistryForm
  /** Path from the root to the map of servers: `[]`, `['mcpServers']` or `['servers']`. */
  prefix: string[]
  /** Server entries in file order (for a duplicated id, the last one, as JSON parsers do). */
  entries: EntryNode[]
  /** VS Code `inputs`, by id. */
  inputs: Map<string, VsCodeInput>
  /** Syntax and structure problems of the file itself. */
  diagnostics: Diagnostic[]
  lineStarts: number[]
}

const SYNTAX_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':' after the property name",
  CommaExpected: "expected ',' between values",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: 'unexpected content after the end of the document',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: "unterminated comment: close it with '*/'",
  UnexpectedEndOfString: 'unterminated string: close it with a double quote',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'control character in a string: escape it',
}

const SIMPLE_KEY = /^[A-Za-z_$][\w$-]*$/

/** `docsRag.dataSources[1].id`; keys that are not plain names are quoted: `["my.server"]`. */
export function formatPath(path: JSONPath): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else if (SIMPLE_KEY.test(segment)) out += out === '' ? segment : `.${segment}`
    else out += `[${JSON.stringify(segment)}]`
  }
  return out
}

function computeLineStarts(text: string): number[] {
  const starts = [0]
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1)
  return starts
}

/** 1-based line and column of an offset. */
export function positionOf(
  doc: RegistryDocument,
  offset: number,
): { line: number; column: number } {
  const starts = doc.lineStarts
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if (starts[mid]! <= offset) low = mid
    else high = mid - 1
  }
  return { line: low + 1, column: offset - starts[low]! + 1 }
}

/** A located diagnostic whose message names the path and position, as people read them. */
export function diagnosticAt(
  doc: RegistryDocument,
  at: Node | number,
  path: JSONPath,
  severity: Diagnostic['severity'],
  rule: string,
  text: string,
): Diagnostic {
  const { line, column } = positionOf(doc, typeof at === 'number' ? at : at.offset)
  const where = formatPath(path)
  return {
    severity,
    file: doc.file,
    path: where,
    line,
    column,
    rule,
    message: `${where ? `${where}: ` : ''}${text} (line ${line}, col ${column})`,
  }
}

/** Offset of `index` inside a string node's value (its start when escapes make it ambiguous). */
export function offsetInString(doc: RegistryDocument, node: Node, index: number): number {
  const raw = doc.text.slice(node.offset + 1, node.offset + node.length - 1)
  return raw === node.value ? node.offset + 1 + index : node.offset
}

/** The key node of a property node. */
export const keyOf = (property: Node): Node | undefined => property.children?.[0]
/** The value node of a property node. */
export const valueOf = (property: Node): Node | undefined => property.children?.[1]

/** "an object", "a string", …: a node's type as a message says it. */
export function describeType(node: Node | undefined): string {
  if (!node) return 'nothing'
  if (node.type === 'object') return 'an object'
  if (node.type === 'array') return 'an array'
  if (node.type === 'null') return 'null'
  return `a ${node.type}`
}

/**
 * How deep objects and arrays may nest. A registry needs a handful of levels; the parser and
 * every walk over the tree recurse, so thousands of levels would overflow the stack.
 */
export const MAX_NESTING = 64

/** Offset of the first `{` or `[` nested deeper than {@link MAX_NESTING}, if any (no recursion). */
function tooDeepAt(text: string): number | undefined {
  const scanner = createScanner(text, true)
  let depth = 0
  for (scanner.scan(); scanner.getTokenOffset() < text.length; scanner.scan()) {
    if (scanner.getTokenLength() !== 1) continue
    const char = text[scanner.getTokenOffset()]
    if (char === '{' || char === '[') {
      if (++depth > MAX_NESTING) return scanner.getTokenOffset()
    } else if (char === '}' || char === ']') depth--
  }
  return undefined
}

/** Parses one registry file. Never throws: problems become diagnostics. */
export function parseRegistryDocument(file: string, input: string): RegistryDocument {
  // A byte-order mark would be a syntax error; a space keeps every offset where it was.
  const text = input.startsWith('\uFEFF') ? ` ${input.slice(1)}` : input
  const doc: RegistryDocument = {
    file,
    text: input,
    root: undefined,
    form: 'seed',
    prefix: [],
    entries: [],
    inputs: new Map(),
    diagnostics: [],
    lineStarts: computeLineStarts(text),
  }
  if (text.trim() === '') {
    doc.diagnostics.push(
      diagnosticAt(
        doc,
        0,
        [],
        'error',
        'empty_file',
        'the file is empty: write {} for an empty registry',
      ),
    )
    return doc
  }
  const deep = tooDeepAt(text)
  if (deep !== undefined) {
    const message = `nested more than ${MAX_NESTING} levels deep: a registry needs only a few; is this the right file?`
    doc.diagnostics.push(diagnosticAt(doc, deep, [], 'error', 'too_deep', message))
    return doc
  }
  const errors: ParseError[] = []
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false })
  doc.root = root
  for (const error of errors) {
    const name = printParseErrorCode(error.error)
    const path = getLocation(text, error.offset).path.filter((s) => s !== '')
    const message = SYNTAX_MESSAGES[name] ?? name
    doc.diagnostics.push(diagnosticAt(doc, error.offset, path, 'error', 'json_syntax', message))
  }
  if (!root) return doc
  reportDuplicateKeys(doc, root, [])
  if (root.type !== 'object') {
    doc.diagnostics.push(
      diagnosticAt(
        doc,
        root,
        [],
        'error',
        'invalid_root',
        `expected an object mapping server ids to their settings, got ${describeType(root)}`,
      ),
    )
    return doc
  }
  readForm(doc, root)
  return doc
}

function properties(node: Node | undefined): Node[] {
  return node?.type === 'object' ? (node.children ?? []).filter((c) => c.type === 'property') : []
}

function propertyNamed(object: Node, name: string): Node | undefined {
  return properties(object).findLast((p) => keyOf(p)?.value === name)
}

/** A `servers` value is VS Code's map unless it looks like a server entry named "servers". */
function isServerMap(node: Node | undefined): boolean {
  if (node?.type !== 'object') return false
  const entryFields = Object.keys(serverEntrySchema.shape)
  return !properties(node).some((p) => entryFields.includes(String(keyOf(p)?.value)))
}

function readForm(doc: RegistryDocument, root: Node): void {
  const mcpServers = propertyNamed(root, 'mcpServers')
  const servers = propertyNamed(root, 'servers')
  let map: Node = root
  if (mcpServers && valueOf(mcpServers)?.type === 'object') {
    doc.form = 'mcpServers'
    map = valueOf(mcpServers)!
  } else if (servers && isServerMap(valueOf(servers))) {
    doc.form = 'servers'
    map = valueOf(servers)!
  }
  if (doc.form !== 'seed') {
    doc.prefix = [doc.form]
    const allowed = ['$schema', doc.form, ...(doc.form === 'servers' ? ['inputs'] : [])]
    for (const property of properties(root)) {
      const key = String(keyOf(property)?.value)
      if (!allowed.includes(key)) {
        doc.diagnostics.push(
          diagnosticAt(
            doc,
            keyOf(property)!,
            [key],
            'warning',
            'unknown_field',
            `unknown top-level field '${key}' (ignored)`,
          ),
        )
      }
    }
    if (doc.form === 'servers') readInputs(doc, propertyNamed(root, 'inputs'))
  }
  const seen = new Map<string, EntryNode>()
  for (const property of properties(map)) {
    const keyNode = keyOf(property)!
    const valueNode = valueOf(property)
    const id = String(keyNode.value)
    if (doc.form === 'seed' && id === '$schema') continue
    const path = [...doc.prefix, id]
    if (!valueNode) continue // a syntax error was reported
    if (valueNode.type !== 'object') {
      doc.diagnostics.push(
        diagnosticAt(
          doc,
          valueNode,
          path,
          'error',
          'invalid_type',
          `expected an object with the server's settings, got ${describeType(valueNode)}`,
        ),
      )
      continue
    }
    const idProblem = checkServerId(id)
    if (idProblem) {
      doc.diagnostics.push(diagnosticAt(doc, keyNode, path, 'error', 'invalid_id', idProblem))
    }
    seen.set(id, { id, keyNode, valueNode })
  }
  doc.entries = [...seen.values()]
}

/** Ids appear in keychain accounts (`<id>/<NAME>`) and CLI selectors (`SERVER:SOURCE`). */
export function checkServerId(id: string): string | undefined {
  if (id.trim() === '') return 'a server id must not be empty: name the server'
  const control = [...id].some((char) => char.charCodeAt(0) < 0x20)
  if (control || /[/:\\]|\$\{/.test(id)) {
    return `server id '${id.slice(0, 40)}' must not contain '/', '\\', ':', '\${' or control characters: rename it`
  }
  return undefined
}

function readInputs(doc: RegistryDocument, property: Node | undefined): void {
  const list = property && valueOf(property)
  if (!list) return
  if (list.type !== 'array') {
    doc.diagnostics.push(
      diagnosticAt(
        doc,
        list,
        ['inputs'],
        'error',
        'invalid_type',
        `expected an array of inputs, got ${describeType(list)}`,
      ),
    )
    return
  }
  for (const [index, item] of (list.children ?? []).entries()) {
    const parsed = vsCodeInputSchema.safeParse(getNodeValue(item))
    if (parsed.success) doc.inputs.set(parsed.data.id, parsed.data)
    else {
      doc.diagnostics.push(
        diagnosticAt(
          doc,
          item,
          ['inputs', index],
          'warning',
          'invalid_input',
          'expected an input object with an "id" (ignored)',
        ),
      )
    }
  }
}

function reportDuplicateKeys(doc: RegistryDocument, node: Node, path: JSONPath): void {
  if (node.type === 'array') {
    for (const [index, child] of (node.children ?? []).entries()) {
      reportDuplicateKeys(doc, child, [...path, index])
    }
    return
  }
  if (node.type !== 'object') return
  const first = new Map<string, Node>()
  for (const property of properties(node)) {
    const key = keyOf(property)
    if (!key) continue
    const name = String(key.value)
    const earlier = first.get(name)
    if (earlier) {
      const { line } = positionOf(doc, earlier.offset)
      doc.diagnostics.push(
        diagnosticAt(
          doc,
          key,
          [...path, name],
          'error',
          'duplicate_key',
          `'${name}' is defined twice (first on line ${line}): remove one of them`,
        ),
      )
    } else first.set(name, key)
    const value = valueOf(property)
    if (value) reportDuplicateKeys(doc, value, [...path, name])
  }
}
