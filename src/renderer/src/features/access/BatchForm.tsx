import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { formatTime } from '../../lib/format'
import { ariaShortcut, Button, Field, Kbd } from '../../ui'
import { CheckAsSelect, useCheckAs } from './CheckAsSelect'
import { newBatchId } from './handoff'
import { recordBatch } from './queries'
import { linksFromText } from './verdicts'

export interface BatchFormProps {
  /** A batch was added to the session (the view shows the newest). */
  onStarted: () => void
}

/** Many links pasted at once (one per line), checked together as a batch. */
export function BatchForm({ onStarted }: BatchFormProps): React.JSX.Element {
  const queryClient = useQueryClient()
  const [text, setText] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [chosen, setChosen] = useState<string | null>(null)
  const { profile } = useCheckAs(chosen)
  const submit = (): void => {
    const parsed = linksFromText(text)
    if (!parsed.ok) return setError(parsed.error)
    const now = Date.now()
    recordBatch(queryClient, {
      batchId: newBatchId(now),
      label: `Links pasted at ${formatTime(now)}`,
      targets: parsed.targets,
      startedAt: now,
      ...(profile ? { profileId: profile.id } : {}),
    })
    setText('')
    setError(undefined)
    onStarted()
  }
  return (
    <form
      className="access-batch-form"
      aria-label="Check a list of links"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      <Field
        label="Links to check, one per line"
        error={error}
        hint="Each is checked as the “Check as” user."
      >
        {(control) => (
          <textarea
            {...control}
            className="ui-input ui-input--mono access-batch-form__text"
            rows={3}
            spellCheck={false}
            value={text}
            onChange={(event) => {
              setText(event.target.value)
              setError(undefined)
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault()
                submit()
              }
            }}
            aria-keyshortcuts={ariaShortcut('Mod+Enter')}
          />
        )}
      </Field>
      <CheckAsSelect value={chosen} onChange={setChosen} fieldClassName="access-batch-form__user" />
      <Button type="submit" icon="layers" className="access-batch-form__submit">
        Check all <Kbd shortcut="Mod+Enter" />
      </Button>
    </form>
  )
}
