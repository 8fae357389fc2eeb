import type { Diagnostic } from '#shared/model/registry'
import { shortenPath } from '../../lib/format'
import { Icon } from '../../ui'

export interface ProblemsListProps {
  diagnostics: readonly Diagnostic[]
  /** The file in the editor; problems elsewhere (layered defaults) show their file. */
  editorPath: string
  onSelect: (diagnostic: Diagnostic) => void
  /** Shown while the draft is being checked by main. */
  checking?: boolean
}

/** Every error and warning of the draft; a click puts the cursor on it. */
export function ProblemsList({
  diagnostics,
  editorPath,
  onSelect,
  checking,
}: ProblemsListProps): React.JSX.Element {
  const errors = diagnostics.filter((d) => d.severity === 'error').length
  const warnings = diagnostics.length - errors
  return (
    <section className="problems" aria-label="Problems">
      <h2 className="config-aside__title">
        Problems
        <span className="muted">
          {errors} {errors === 1 ? 'error' : 'errors'}, {warnings}{' '}
          {warnings === 1 ? 'warning' : 'warnings'}
          {checking ? ' · checking…' : ''}
        </span>
      </h2>
      {diagnostics.length === 0 ? (
        <p className="problems__none">
          <Icon name="check" /> No problems: the file is valid.
        </p>
      ) : (
        <ul className="problems__list">
          {diagnostics.map((d, index) => {
            const elsewhere = d.file !== editorPath
            return (
              <li key={`${d.file}:${d.line}:${d.column}:${index}`}>
                <button
                  type="button"
                  className={`problems__item problems__item--${d.severity}`}
                  onClick={() => onSelect(d)}
                  disabled={elsewhere}
                  title={elsewhere ? d.file : `Go to line ${d.line}, column ${d.column}`}
                >
                  <Icon name={d.severity === 'error' ? 'error' : 'warning'} />
                  <span className="problems__message">
                    {d.message}
                    {elsewhere && (
                      <span className="problems__file"> in {shortenPath(d.file, 48)}</span>
                    )}
                  </span>
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
