import { EditorState, type Extension } from '@codemirror/state'
import { EditorView } from '@codemirror/view'
import { useEffect, useImperativeHandle, useRef } from 'react'

/** What a parent can do with a mounted editor. */
export interface CodeEditorHandle {
  focus: () => void
  /** Puts the cursor at a 1-based line and column, scrolls there and focuses. */
  goTo: (line: number, column: number) => void
  view: () => EditorView | null
}

export interface CodeEditorProps {
  value: string
  /**
   * Bump to replace the editor's text with `value` (a file loaded, a revert). Between bumps
   * the editor owns its text and only reports it through `onChange`.
   */
  revision: number
  onChange?: (text: string) => void
  /** Created once by the parent (read changing inputs through refs); a new value rebuilds. */
  extensions: Extension
  /** Accessible name of the text area. */
  label: string
  readOnly?: boolean
  handleRef?: React.Ref<CodeEditorHandle>
  className?: string
}

/**
 * CodeMirror 6 as a controlled React component. The editor lives in a shadow root so its
 * styles go through constructable stylesheets (adoptedStyleSheets), which the app's CSP
 * (`style-src 'self'`, no inline `<style>`) allows; CSS variables from the page still apply.
 */
export function CodeEditor({
  value,
  revision,
  onChange,
  extensions,
  label,
  readOnly = false,
  handleRef,
  className,
}: CodeEditorProps): React.JSX.Element {
  const hostRef = useRef<HTMLDivElement>(null)
  const viewRef = useRef<EditorView | null>(null)
  const onChangeRef = useRef(onChange)
  const valueRef = useRef(value)
  useEffect(() => {
    onChangeRef.current = onChange
    valueRef.current = value
  })

  useEffect(() => {
    const host = hostRef.current
    if (!host) return
    const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
    const parent = document.createElement('div')
    parent.style.height = '100%'
    shadow.append(parent)
    const view = new EditorView({
      root: shadow,
      parent,
      state: EditorState.create({
        doc: valueRef.current,
        extensions: [
          extensions,
          // An explicit Tab stop: a read-only editor (not contenteditable) must be reachable by
          // keyboard too, or its scrolling box cannot be scrolled without a mouse.
          EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current?.(update.state.doc.toString())
          }),
        ],
      }),
    })
    viewRef.current = view
    return () => {
      view.destroy()
      parent.remove()
      viewRef.current = null
    }
  }, [extensions, label, readOnly])

  // A new text from outside (a disk version loaded, a revert): replace only what differs, so
  // the cursor and scroll position stay where they can. Keyed on `revision`, not on `value`:
  // a render that lags behind typing must never put older text back.
  useEffect(() => {
    const view = viewRef.current
    const next = valueRef.current
    if (!view) return
    const current = view.state.doc.toString()
    if (current === next) return
    let start = 0
    while (start < current.length && start < next.length && current[start] === next[start]) {
      start++
    }
    let endCurrent = current.length
    let endNext = next.length
    while (endCurrent > start && endNext > start && current[endCurrent - 1] === next[endNext - 1]) {
      endCurrent--
      endNext--
    }
    view.dispatch({ changes: { from: start, to: endCurrent, insert: next.slice(start, endNext) } })
  }, [revision])

  useImperativeHandle(
    handleRef,
    () => ({
      focus: () => viewRef.current?.focus(),
      goTo: (line, column) => {
        const view = viewRef.current
        if (!view) return
        const doc = view.state.doc
        const target = doc.line(Math.min(Math.max(1, line), doc.lines))
        const anchor = Math.min(target.from + Math.max(0, column - 1), target.to)
        view.dispatch({ selection: { anchor }, scrollIntoView: true })
        view.focus()
      },
      view: () => viewRef.current,
    }),
    [],
  )

  return <div ref={hostRef} className={className} />
}
