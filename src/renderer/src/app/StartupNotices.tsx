import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { appQueries } from '../features/app/queries'
import { Banner } from '../ui'

/**
 * Notices the core recorded before this window connected (e.g. demo keys passed without a
 * keychain). Live ones arrive as toasts; these stay until dismissed.
 */
export function StartupNotices(): React.JSX.Element | null {
  const info = useQuery(appQueries.info())
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
          onDismiss={() => setDismissed((all) => [...all, notice.at])}
        >
          {notice.message}
        </Banner>
      ))}
    </>
  )
}
