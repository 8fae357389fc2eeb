import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { EnabledDraft, SaveResult } from '#shared/ipc/registry'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { registryQueries } from '../config/queries'
import { SaveDialog } from '../config/SaveDialog'
import { serverKeys } from './queries'
import type { ServerActions } from './use-server-actions'

/**
 * Enable / disable as the Servers panel does it. On a file it edits that one field at once; on
 * the embedded demo registry the first such click writes the whole registry to a new file, so it
 * goes through the save preview every other save shows. Render `dialog` once.
 */
export function useEnablePreview(actions: ServerActions): {
  setEnabled: ServerActions['setEnabled']
  dialog: React.JSX.Element
} {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [pending, setPending] = useState<
    (EnabledDraft & { server: string; enabled: boolean }) | null
  >(null)

  const setEnabled = async (server: string, enabled: boolean): Promise<void> => {
    try {
      const { source } = await queryClient.ensureQueryData(registryQueries.view())
      if (source.kind !== 'embedded') return await actions.setEnabled(server, enabled)
      const draft = await call('registry:enabled-draft', { serverId: server, enabled })
      setPending({ ...draft, server, enabled })
    } catch (error) {
      notify({
        tone: 'bad',
        message: `Could not ${enabled ? 'enable' : 'disable'} ${server}.`,
        detail: (error as Error).message,
      })
    }
  }

  const outcome = (result: SaveResult): void => {
    const what = pending && `${pending.server} ${pending.enabled ? 'enabled' : 'disabled'}`
    setPending(null)
    if (result.status === 'saved') {
      void queryClient.invalidateQueries({ queryKey: serverKeys.all })
      notify({ tone: 'ok', message: `${what}; the registry is now ${result.path}.` })
    } else {
      notify({
        tone: 'bad',
        message: `${what ?? 'The change'} was not saved.`,
        detail:
          result.status === 'conflict'
            ? `${result.path} was created meanwhile; try again.`
            : 'The registry would not be valid: fix it in Config first.',
      })
    }
  }

  const dialog = (
    <SaveDialog
      text={pending?.text ?? null}
      base={pending?.raw ?? EMPTY_RAW}
      disk={null}
      onSave={(text) => call('config:save', { text, baseHash: pending!.raw.hash })}
      onClose={() => setPending(null)}
      onOutcome={outcome}
    />
  )
  return { setEnabled, dialog }
}

/** Never shown: the dialog renders only while a draft is pending. */
const EMPTY_RAW: EnabledDraft['raw'] = {
  path: '',
  exists: false,
  text: '',
  hash: '',
  source: { kind: 'embedded', files: [], label: '' },
  layeredOver: [],
  fromEmbedded: true,
}
