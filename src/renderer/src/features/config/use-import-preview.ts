import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { ImportApplyResult, ImportPreview, ImportSource } from '#shared/ipc/registry'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { importableIds, pickedOf, toggled } from './import-view'
import { configKeys, registryKeys } from './queries'

/**
 * An import preview's picks and its Apply: which servers go in, the confirmation, and what
 * applying came to (the registry is read again once the file is saved).
 */
export function useImportPreview(source: ImportSource, preview: ImportPreview) {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [selected, setSelected] = useState<Set<string>>(() => importableIds(preview))
  const [applying, setApplying] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [outcome, setOutcome] = useState<ImportApplyResult | null>(null)
  const [failure, setFailure] = useState<string | null>(null)

  const apply = async (keepPlaintext: boolean): Promise<void> => {
    setApplying(true)
    setFailure(null)
    try {
      const result = await call('config:import-apply', {
        source,
        servers: [...selected],
        baseHash: preview.target.hash,
        keepPlaintext,
      })
      setOutcome(result)
      if (result.status === 'saved') {
        await queryClient.invalidateQueries({ queryKey: registryKeys.all })
        await queryClient.invalidateQueries({ queryKey: configKeys.raw() })
        notify({
          tone: 'ok',
          message: `Imported ${result.imported.join(', ')} into ${result.path}.`,
        })
      }
    } catch (error) {
      setFailure((error as Error).message)
    } finally {
      setApplying(false)
      setConfirming(false)
    }
  }

  return {
    selected,
    toggle: (id: string, on: boolean): void => setSelected((old) => toggled(old, id, on)),
    picked: pickedOf(preview, selected),
    applying,
    confirming,
    setConfirming,
    outcome,
    failure,
    apply,
  }
}
