import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { isRedactedLink } from '#shared/redacted'
import { Button, Kbd, Select, TextField } from '../../ui'
import { CheckAsSelect, useCheckAs } from './CheckAsSelect'
import { accessQueries } from './queries'
import { targetFromDraft, type DraftErrors, type TargetDraft } from './verdicts'
import type { AccessTargetInput } from '#shared/ipc/rag'

export interface CheckFormProps {
  draft: TargetDraft
  onDraftChange: (draft: TargetDraft) => void
  /** The “Check as” profile id picked here; null: the active (“View as”) one. */
  checkAs: string | null
  onCheckAsChange: (profileId: string) => void
  /** `profileId`: whom to check as (the active profile unless another was chosen). */
  onCheck: (target: AccessTargetInput, profileId: string | undefined) => void
  busy: boolean
}

/**
 * What to check and as whom: a link, or a server and segment id (or both, as a hit carries
 * them), and the acting user. Enter in any field checks.
 */
export function CheckForm({
  draft,
  onDraftChange,
  checkAs: chosen,
  onCheckAsChange,
  onCheck,
  busy,
}: CheckFormProps): React.JSX.Element {
  const servers = useQuery(accessQueries.servers())
  const { profile: checkAs } = useCheckAs(chosen)
  const [errors, setErrors] = useState<DraftErrors>({})

  const edit = (field: keyof TargetDraft, value: string): void => {
    onDraftChange({ ...draft, [field]: value })
    if (errors[field] || errors.form) setErrors({})
  }
  const serverOptions = [
    { value: '', label: '— none (link only) —' },
    ...(servers.data ?? [])
      .filter((s) => s.visible)
      .map((s) => ({
        value: s.id,
        label: s.dialect.id ? `${s.id} (${s.dialect.id})` : s.id,
      })),
  ]
  // A server named by a handoff but missing from the list (hidden, or removed) stays selectable.
  if (draft.server && !serverOptions.some((o) => o.value === draft.server)) {
    serverOptions.push({ value: draft.server, label: `${draft.server} (not in the registry)` })
  }

  return (
    <form
      className="access-form"
      aria-label="Check access"
      noValidate
      // Enter checks from any field, as the button's hint says; a select does not submit a form
      // by itself.
      onKeyDown={(event) => {
        if (event.key !== 'Enter' || !(event.target instanceof HTMLSelectElement)) return
        event.preventDefault()
        event.currentTarget.requestSubmit()
      }}
      onSubmit={(event) => {
        event.preventDefault()
        const parsed = targetFromDraft(draft)
        if (!parsed.ok) return setErrors(parsed.errors)
        setErrors({})
        onCheck(parsed.target, checkAs?.id)
      }}
    >
      <TextField
        label="Link"
        mono
        type="url"
        placeholder="https://… (the link the user clicked)"
        value={draft.url}
        onChange={(event) => edit('url', event.target.value)}
        error={errors.url ?? errors.form}
        hint={
          isRedactedLink(draft.url)
            ? 'Signed link from the history, signature not saved: after a restart, paste the link again.'
            : undefined
        }
        fieldClassName="access-form__url"
        spellCheck={false}
        autoComplete="off"
      />
      <Select
        label="Server"
        value={draft.server}
        options={serverOptions}
        onChange={(value) => edit('server', value)}
        error={errors.server}
        fieldClassName="access-form__server"
      />
      <TextField
        label="Segment id"
        mono
        placeholder="e.g. hb-pto-policy#0"
        value={draft.segmentId}
        onChange={(event) => edit('segmentId', event.target.value)}
        error={errors.segmentId}
        fieldClassName="access-form__segment"
        spellCheck={false}
        autoComplete="off"
      />
      <CheckAsSelect
        value={chosen}
        onChange={onCheckAsChange}
        hint
        fieldClassName="access-form__user"
      />
      <Button
        type="submit"
        variant="primary"
        icon="access"
        busy={busy}
        aria-keyshortcuts="Enter"
        className="access-form__submit"
      >
        Check <Kbd shortcut="Enter" className="access-form__kbd" />
      </Button>
    </form>
  )
}
