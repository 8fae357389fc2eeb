import { useQuery } from '@tanstack/react-query'
import { appQueries } from '../features/app/queries'
import { registryQueries } from '../features/config/queries'
import { formatTime, plural } from '../lib/format'

/** Version, data folder, and what the running registry holds. */
export function StatusBar(): React.JSX.Element {
  const info = useQuery(appQueries.info())
  const registry = useQuery(registryQueries.view())
  return (
    <footer className="statusbar">
      {info.isError ? (
        <span role="alert">Cannot reach the console core: {info.error.message}</span>
      ) : info.data ? (
        <>
          <span>
            {info.data.productName} {info.data.version}
          </span>
          {registry.data && (
            <span>
              {plural(registry.data.servers.length, 'server')} in the registry · applied{' '}
              {formatTime(registry.data.appliedAt)}
            </span>
          )}
          <span className="statusbar__path" title="Data folder">
            {info.data.dataDir}
          </span>
        </>
      ) : (
        <span>Connecting…</span>
      )}
    </footer>
  )
}
