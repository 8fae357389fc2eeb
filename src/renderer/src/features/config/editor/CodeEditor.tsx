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
          EditorView.contentAttributes.of({ 'aria-label': label }),
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

  // A new value from outside (a disk version loaded): replace only what differs, so the
  // cursor and scroll position stay where they can.
  useEffect(() => {
    const view = viewRef.current
    if (!view) return
    const current = view.state.doc.toString()
    if (current === value) return
    let start = 0
    while (start < current.length && start < value.length && current[start] === value[start]) {
      start++
    }
    let endCurrent = current.length
    let endValue = value.length
    while (
      endCurrent > start &&
      endValue > start &&
      current[endCurrent - 1] === value[endValue - 1]
    ) {
      endCurrent--
      endValue--
    }
    view.dispatch({
      changes: { from: start, to: endCurrent, insert: value.slice(start, endValue) },
    })
  }, [value])

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
