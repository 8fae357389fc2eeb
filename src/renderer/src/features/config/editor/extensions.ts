import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  snippet,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { json } from '@codemirror/lang-json'
import {
  bracketMatching,
  foldGutter,
  foldKeymap,
  indentOnInput,
  syntaxHighlighting,
} from '@codemirror/language'
import { lintGutter, linter, lintKeymap, type Diagnostic as CmDiagnostic } from '@codemirror/lint'
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search'
import type { Extension } from '@codemirror/state'
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view'
import { classHighlighter } from '@lezer/highlight'
import type { Diagnostic } from '#shared/model/registry'
import { diagnosticOffsets } from './diagnostic-range'
import { registrySchema } from './registry-schema'
import { completionsAt, type JsonSchema } from './schema-completion'
import { editorTheme } from './theme'

/** Completion of property names and enum values at the cursor, from `schema`. */
export const schemaCompletionSource =
  (schema: JsonSchema, rootKeys = false) =>
  (context: CompletionContext): CompletionResult | null => {
    const found = completionsAt(context.state.doc.toString(), context.pos, schema, rootKeys)
    if (!found) return null
    const typed =
      found.wordTo > found.wordFrom ||
      context.state.sliceDoc(found.replaceFrom, context.pos) === '"'
    if (!typed && !context.explicit) return null
    return {
      from: found.wordFrom,
      to: found.wordTo,
      validFor: /^[\w$.-]*$/,
      options: found.options.map((option) => ({
        label: option.label,
        type: option.kind === 'property' ? 'property' : 'enum',
        ...(option.detail ? { detail: option.detail } : {}),
        // The completion rewrites the quotes around the word as well.
        apply: (view, completion, from, to) => {
          const quoted = view.state.sliceDoc(from - 1, from) === '"'
          const start = quoted ? from - 1 : from
          const end = quoted && view.state.sliceDoc(to, to + 1) === '"' ? to + 1 : to
          snippet(option.template)(view, completion, start, end)
        },
      })),
    }
  }

/** Diagnostics for the editor's text; the caller decides where they come from. */
export type DiagnosticsFor = (text: string) => Diagnostic[]

/** Shows located diagnostics inline (underline, gutter marker, hover with the message). */
export function registryLinter(diagnosticsFor: DiagnosticsFor): Extension {
  return linter(
    (view): CmDiagnostic[] =>
      diagnosticsFor(view.state.doc.toString()).map((d) => ({
        ...diagnosticOffsets(view.state.doc, d),
        severity: d.severity,
        message: d.message,
        source: d.rule,
      })),
    { delay: 200 },
  )
}

/** Everything the config editor needs: JSON, lint, completion, search, history, keys. */
export function configEditorExtensions(options: { diagnosticsFor: DiagnosticsFor }): Extension {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    foldGutter(),
    lintGutter(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    closeBrackets(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    json(),
    syntaxHighlighting(classHighlighter),
    registryLinter(options.diagnosticsFor),
    autocompletion({ override: [schemaCompletionSource(registrySchema)], icons: false }),
    keymap.of([
      ...closeBracketsKeymap,
      ...defaultKeymap,
      ...searchKeymap,
      ...historyKeymap,
      ...foldKeymap,
      ...completionKeymap,
      ...lintKeymap,
    ]),
    EditorView.lineWrapping,
    editorTheme,
  ]
}

/** A small JSON editor completing from `schema` (e.g. a tool's input schema). */
export function jsonEditorExtensions(schema: JsonSchema): Extension {
  return [
    history(),
    drawSelection(),
    bracketMatching(),
    closeBrackets(),
    json(),
    syntaxHighlighting(classHighlighter),
    autocompletion({ override: [schemaCompletionSource(schema, true)], icons: false }),
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap]),
    EditorView.lineWrapping,
    editorTheme,
  ]
}

/** A read-only JSON view with the same look (for comparisons). */
export function readOnlyExtensions(): Extension {
  return [
    lineNumbers(),
    json(),
    syntaxHighlighting(classHighlighter),
    EditorView.lineWrapping,
    editorTheme,
  ]
}
