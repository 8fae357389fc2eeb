import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../api'
import { appQueries } from '../features/app/queries'
import { Banner } from '../ui'

/**
 * Notices the core recorded before this window connected (e.g. demo keys passed without a
 * keychain). Live ones arrive as toasts; these stay until dismissed. One line each, with how
 * to fix it folded away; a notice with an id is dismissed for good (it would come back every
 * start otherwise).
 */
export function StartupNotices(): React.JSX.Element | null {
  const info = useQuery(appQueries.info())
  const queryClient = useQueryClient()
  const [dismissed, setDismissed] = useState<number[]>([])
  const notices = (info.data?.notices ?? []).filter((notice) => !dismissed.includes(notice.at))
  if (notices.length === 0) return null
  return (
    <>
      {notices.map((notice) => (
        <Banner
          key={`${notice.at}-${notice.message}`}
          tone={notice.level === 'error' ? 'bad' : notice.level === 'warning' ? 'warn' : 'info'}
          className="app__banner"
          onDismiss={() => {
            setDismissed((all) => [...all, notice.at])
            if (notice.id) {
              void call('app:dismiss-notice', { id: notice.id }).then(() =>
                queryClient.invalidateQueries({ queryKey: appQueries.info().queryKey }),
              )
            }
          }}
        >
          <span className="app__banner-message">{notice.message}</span>
          {notice.detail && (
            <details className="app__banner-fix">
              <summary>How to fix</summary>
              <p>{notice.detail}</p>
            </details>
          )}
        </Banner>
      ))}
    </>
  )
}
