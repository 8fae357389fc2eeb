import { EditorView } from '@codemirror/view'

/**
 * The editor's look, from the page's CSS variables (they cross the shadow root), so light
 * and dark follow the OS like the rest of the app. Token classes come from classHighlighter.
 */
export const editorTheme = EditorView.theme({
  '&': {
    height: '100%',
    fontSize: '12px',
    color: 'var(--fg)',
    backgroundColor: 'var(--bg-raised)',
  },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.55' },
  '.cm-content': { caretColor: 'var(--fg)' },
  // The page's reduced-motion rule does not reach into the editor's shadow root.
  '@media (prefers-reduced-motion: reduce)': {
    '.cm-cursorLayer': { animation: 'none !important' },
  },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection':
    { backgroundColor: 'var(--bg-selected)' },
  '.cm-gutters': {
    backgroundColor: 'var(--bg-sunken)',
    color: 'var(--fg-subtle)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--bg-hover) 45%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--bg-hover)', color: 'var(--fg)' },
  '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': {
    backgroundColor: 'var(--bg-selected)',
    outline: '1px solid var(--border-strong)',
  },
  '.cm-selectionMatch': { backgroundColor: 'color-mix(in srgb, var(--accent) 18%, transparent)' },
  '.cm-foldPlaceholder': {
    backgroundColor: 'var(--bg-sunken)',
    border: '1px solid var(--border)',
    color: 'var(--fg-muted)',
  },
  '.tok-propertyName': { color: 'var(--syn-key)' },
  '.tok-string': { color: 'var(--syn-string)' },
  '.tok-number': { color: 'var(--syn-number)' },
  '.tok-bool, .tok-null, .tok-atom, .tok-keyword': { color: 'var(--syn-literal)' },
  '.tok-punctuation, .tok-brace, .tok-squareBracket, .tok-separator': { color: 'var(--syn-punct)' },
  '.tok-comment, .tok-lineComment, .tok-blockComment': {
    color: 'var(--fg-subtle)',
    fontStyle: 'italic',
  },
  '.cm-tooltip': {
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--fg)',
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius)',
    boxShadow: 'var(--shadow)',
    fontFamily: 'var(--font)',
    fontSize: '12px',
  },
  '.cm-tooltip-autocomplete > ul': { fontFamily: 'var(--mono)', maxHeight: '16em' },
  '.cm-tooltip-autocomplete > ul > li': { padding: '2px 8px' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    backgroundColor: 'var(--accent)',
    color: 'var(--accent-fg)',
  },
  '.cm-completionDetail': {
    color: 'inherit',
    opacity: '0.75',
    marginLeft: '1.5em',
    fontStyle: 'normal',
  },
  '.cm-completionMatchedText': { textDecoration: 'none', fontWeight: '600' },
  '.cm-diagnostic': { padding: '4px 8px', maxWidth: '60ch', whiteSpace: 'pre-wrap' },
  '.cm-diagnostic-error': { borderLeft: '3px solid var(--bad)' },
  '.cm-diagnostic-warning': { borderLeft: '3px solid var(--warn)' },
  '.cm-diagnosticSource': { color: 'var(--fg-muted)', opacity: '1' },
  '.cm-panels': { backgroundColor: 'var(--bg-sunken)', color: 'var(--fg)' },
  '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
  '.cm-panel.cm-search input, .cm-panel.cm-search button': { fontSize: '12px' },
  '.cm-textfield': {
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--fg)',
    border: '1px solid var(--border-strong)',
  },
  '.cm-button': {
    backgroundImage: 'none',
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--fg)',
    border: '1px solid var(--border-strong)',
  },
})
