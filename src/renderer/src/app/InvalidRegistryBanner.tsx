import { useQuery } from '@tanstack/react-query'
import { registryQueries } from '../features/config/queries'
import { formatTime, plural } from '../lib/format'
import {
  useConfigTab,
  useConfigTabSelected,
  useNavigationRequested,
  usePanel,
} from '../state/store'
import { Banner, Button } from '../ui'

/**
 * Shown above every panel while the registry on disk is invalid: the console keeps running
 * the last good registry, and the first problem is named.
 */
export function InvalidRegistryBanner(): React.JSX.Element | null {
  const registry = useQuery(registryQueries.view())
  const panel = usePanel()
  const tab = useConfigTab()
  const navigationRequested = useNavigationRequested()
  const configTabSelected = useConfigTabSelected()
  const invalid = registry.data?.invalid
  if (!invalid) return null
  const errors = invalid.diagnostics.filter((d) => d.severity === 'error')
  const first = errors[0]
  return (
    <Banner
      tone="bad"
      className="app__banner"
      title={`rag-mcp.json on disk is invalid (${plural(errors.length, 'error')}, ${formatTime(invalid.at)}): the last good config is still running.`}
      actions={
        panel === 'config' && tab === 'editor' ? null : (
          <Button
            onClick={() => {
              configTabSelected('editor')
              navigationRequested('config')
            }}
          >
            {panel === 'config' ? 'Show in the editor' : 'Open Config'}
          </Button>
        )
      }
    >
      {first && <span className="mono">{first.message}</span>}
    </Banner>
  )
}
