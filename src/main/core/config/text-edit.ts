import { applyEdits, modify, type FormattingOptions } from 'jsonc-parser'
import { parseRegistryDocument } from '../../../shared/config/document'

/**
 * Edits of a registry file's text that keep the user's comments, formatting and key order
 * (jsonc-parser `modify` + `applyEdits`): only the touched values change.
 */

/** Indentation and line ends as the file already uses them. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  '
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol }
}

/** One value to set: `field` of server `id`, or the whole entry when `field` is absent. */
export interface EntryEdit {
  id: string
  field?: string
  value: unknown
}

/** Applies the edits; an empty text starts as `{}` (the seed form). */
export function editEntries(text: string, edits: readonly EntryEdit[]): string {
  let out = text.trim() === '' ? '{}\n' : text
  const formattingOptions = formattingOf(out)
  const prefix = parseRegistryDocument('', out).prefix
  for (const edit of edits) {
    const path = [...prefix, edit.id, ...(edit.field === undefined ? [] : [edit.field])]
    out = applyEdits(out, modify(out, path, edit.value, { formattingOptions }))
  }
  return out
}

/** Whether the text defines the server (in any form). */
export const definesServer = (text: string, id: string): boolean =>
  parseRegistryDocument('', text).entries.some((entry) => entry.id === id)
