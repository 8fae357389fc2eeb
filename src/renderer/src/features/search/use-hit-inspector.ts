import { useQuery } from '@tanstack/react-query'
import type { Hit } from '#shared/model/rag'
import { postNotice, useAccessRequested } from '../../state/store'
import { hitTarget } from './access-targets'
import { hitJson, hitName } from './hit-fields'
import { searchQueries } from './queries'

/**
 * What the hit inspector reads and does: the hit's raw reply (main keeps those of its recent
 * searches only), Check access on the Access panel, and Copy as JSON with a notice either way.
 */
export function useHitInspector(searchId: string, hit: Hit) {
  const accessRequested = useAccessRequested()
  const payload = useQuery(searchQueries.raw(searchId, hit))
  return {
    payload,
    checkAccess: (): void => accessRequested(hitTarget(hit), hitName(hit)),
    copy: (): void => {
      navigator.clipboard.writeText(hitJson(hit, payload.data)).then(
        () => postNotice({ tone: 'ok', message: `Copied “${hitName(hit)}” as JSON.` }),
        (error: unknown) =>
          postNotice({
            tone: 'bad',
            message: 'Cannot copy to the clipboard.',
            detail: error instanceof Error ? error.message : String(error),
          }),
      )
    },
  }
}
