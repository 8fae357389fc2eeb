import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { SaveResult } from '#shared/ipc/registry'
import { configQueries } from './queries'
import { bySeverity } from './save-flow'

/**
 * The save dialog's check and save: main validates the text (what it does to each server, its
 * problems), Save is focused once the text can be saved, and a failed save is kept to show.
 */
export function useSavePreview(
  text: string,
  onSave: (text: string) => Promise<SaveResult>,
  onOutcome: (result: SaveResult) => void,
) {
  const validation = useQuery(configQueries.validate(text))
  const [saving, setSaving] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const data = validation.data
  const saveButton = useRef<HTMLButtonElement>(null)
  // Once the check says the draft can be saved, Enter saves it.
  useEffect(() => {
    if (data?.valid) saveButton.current?.focus()
  }, [data?.valid])

  const confirm = async (): Promise<void> => {
    setSaving(true)
    setFailure(null)
    try {
      const result = await onSave(text)
      onOutcome(result)
    } catch (error) {
      setFailure((error as Error).message)
    } finally {
      setSaving(false)
    }
  }

  return {
    validation,
    ...bySeverity(data?.diagnostics),
    saveButton,
    saving,
    failure,
    confirm,
  }
}
