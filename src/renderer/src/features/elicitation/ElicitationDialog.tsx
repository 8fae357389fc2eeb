import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { PendingElicitation } from '#shared/ipc/elicitation'
import type { ElicitationAnswer, ElicitField } from '#shared/model/elicitation'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { Button, Dialog, Select, TextField } from '../../ui'
import { answerOf, draftOf, type Draft } from './form-draft'
import { elicitKeys } from './queries'
import './ElicitationDialog.css'

/**
 * A form a server asks the person to fill in while it works (`elicitation/create`): one at a
 * time, oldest first. Submit sends the answer; Decline and Cancel say no; a form the server
 * stopped waiting for (or that another window answered) closes on its own.
 */
export function ElicitationDialog(): React.JSX.Element | null {
  const pending = useQuery({
    queryKey: elicitKeys.pending(),
    queryFn: () => call('elicit:pending'),
    staleTime: Infinity,
  })
  const form = pending.data?.[0]
  // Keyed by the form: a new form starts from its own defaults.
  return form ? <FormDialog key={form.id} form={form} more={pending.data!.length - 1} /> : null
}

function FormDialog({ form, more }: { form: PendingElicitation; more: number }) {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [draft, setDraft] = useState<Draft>(() => draftOf(form.fields))
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState(false)
  const { content, problems } = answerOf(form.fields, draft)
  const send = async (answer: ElicitationAnswer) => {
    setBusy(true)
    try {
      const { answered } = await call('elicit:answer', { id: form.id, answer })
      if (!answered) notify({ tone: 'warn', message: `${form.serverId} no longer waits for it.` })
    } catch (failure) {
      notify({
        tone: 'bad',
        message: `Could not answer ${form.serverId}'s form.`,
        detail: (failure as Error).message,
      })
    } finally {
      setBusy(false)
      queryClient.setQueryData<PendingElicitation[]>(elicitKeys.pending(), (list) =>
        list?.filter((f) => f.id !== form.id),
      )
    }
  }
  const submit = (): void => {
    setTried(true)
    if (Object.keys(problems).length === 0) void send({ action: 'accept', content })
  }
  return (
    <Dialog
      open
      onClose={() => void send({ action: 'cancel' })}
      title={`${form.serverId} asks`}
      description={form.message || 'The server asks for a few answers.'}
      size="md"
      onSubmit={submit}
      footer={
        <>
          {more > 0 && <span className="muted elicit__more">{more} more waiting</span>}
          <Button disabled={busy} onClick={() => void send({ action: 'cancel' })}>
            Cancel
          </Button>
          <Button disabled={busy} onClick={() => void send({ action: 'decline' })}>
            Decline
          </Button>
          <Button type="submit" variant="primary" busy={busy}>
            Send
          </Button>
        </>
      }
    >
      <p className="muted elicit__note">
        Answers go to {form.serverId} only. Never type a password or key into a form: servers may
        not ask for them this way.
      </p>
      <div className="elicit__fields">
        {form.fields.map((field) => (
          <FieldInput
            key={field.name}
            field={field}
            value={draft[field.name]!}
            error={tried ? problems[field.name] : undefined}
            onChange={(value) => setDraft({ ...draft, [field.name]: value })}
          />
        ))}
      </div>
    </Dialog>
  )
}

interface FieldInputProps {
  field: ElicitField
  value: string | boolean | string[]
  error: string | undefined
  onChange: (value: string | boolean | string[]) => void
}

function FieldInput({ field, value, error, onChange }: FieldInputProps): React.JSX.Element {
  const label = `${field.title ?? field.name}${field.required ? '' : ' (optional)'}`
  const hint = field.description
  switch (field.kind) {
    case 'boolean':
      return (
        <label className="elicit__check" title={hint}>
          <input
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
          />
          {label}
          {hint && <span className="muted"> · {hint}</span>}
        </label>
      )
    case 'enum':
      return (
        <Select
          label={label}
          hint={hint}
          error={error}
          value={value as string}
          onChange={onChange}
          options={[
            ...(field.required && value !== '' ? [] : [{ value: '', label: '—' }]),
            ...field.options,
          ]}
        />
      )
    case 'multi':
      return (
        <fieldset className="elicit__group">
          <legend>{label}</legend>
          <div className="elicit__choices">
            {field.options.map((option) => {
              const chosen = (value as string[]).includes(option.value)
              return (
                <label key={option.value} className="elicit__check">
                  <input
                    type="checkbox"
                    checked={chosen}
                    onChange={() =>
                      onChange(
                        chosen
                          ? (value as string[]).filter((v) => v !== option.value)
                          : [...(value as string[]), option.value],
                      )
                    }
                  />
                  {option.label}
                </label>
              )
            })}
          </div>
          {error && <div className="ui-field__error">{error}</div>}
          {hint && <div className="ui-field__hint">{hint}</div>}
        </fieldset>
      )
    case 'string':
    case 'number':
      return (
        <TextField
          label={label}
          hint={hint}
          error={error}
          value={value as string}
          inputMode={field.kind === 'number' ? (field.integer ? 'numeric' : 'decimal') : undefined}
          type={field.kind === 'string' && field.format === 'email' ? 'email' : 'text'}
          placeholder={field.kind === 'string' ? placeholderOf(field.format) : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )
  }
}

function placeholderOf(format: string | undefined): string | undefined {
  if (format === 'date') return 'YYYY-MM-DD'
  if (format === 'date-time') return 'YYYY-MM-DDThh:mm:ssZ'
  if (format === 'uri') return 'https://…'
  return undefined
}
