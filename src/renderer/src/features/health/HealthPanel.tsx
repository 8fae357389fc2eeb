import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { Banner, EmptyState, Select, Spinner } from '../../ui'
import { ReloadHistory } from '../config/ReloadHistory'
import { serverQueries } from '../servers/queries'
import { HealthOverview } from './HealthOverview'
import { isCharted, timeAxis } from './health-view'
import { ServerHealthSection } from './ServerHealthSection'
import './HealthPanel.css'

/** Health is measured continuously in main; the panel reads it this often while shown. */
const POLL_MS = 5000

/**
 * Per server and operation: latency p50/p95/p99 over time, error rate by code, uptime, last
 * success and failure, rate-limit headroom; then the registry's reload history.
 */
export function HealthPanel(): React.JSX.Element {
  const health = useQuery({ ...serverQueries.health(), refetchInterval: POLL_MS })
  const [server, setServer] = useState<string>('')

  const shown = useMemo(
    () => (health.data ?? []).filter((h) => !server || h.server === server),
    [health.data, server],
  )
  // Every chart on one axis, so a spike on one server lines up with the others in time.
  const axis = useMemo(
    () =>
      timeAxis(
        shown.flatMap((h) => h.operations.filter(isCharted).map((op) => op.series)),
        shown[0]?.seriesBucketMs ?? 0,
      ),
    [shown],
  )
  return (
    <div className="health">
      <div className="health__head">
        <h1 tabIndex={-1}>Health</h1>
        <p className="muted">
          Measured from every call and probe. Rates and quantiles cover a sliding window (named in
          each column); calls and errors by code count since the console started; charts show the
          latency of successful calls over the last 30 min in 15 s slices, on one time axis. Updates
          every {POLL_MS / 1000} s.
        </p>
        <span className="health__spacer" />
        <Select
          label="Server"
          inline
          value={server}
          onChange={setServer}
          options={[
            { value: '', label: 'All servers' },
            ...(health.data ?? []).map((h) => ({ value: h.server, label: h.server })),
          ]}
        />
      </div>
      {health.isPending ? (
        <Spinner label="Loading health…" />
      ) : health.isError ? (
        <Banner tone="bad" title="Cannot read the servers' health">
          {health.error.message}
        </Banner>
      ) : health.data.length === 0 ? (
        <EmptyState icon="health" title="No servers in the pool">
          Servers in rag-mcp.json appear here once the console connects to them.
        </EmptyState>
      ) : (
        <>
          <HealthOverview servers={health.data} onSelect={setServer} />
          {shown.map((h) => (
            <ServerHealthSection key={h.server} health={h} axis={axis} />
          ))}
        </>
      )}
      <section className="health__history" aria-label="Reload history">
        <h2>Reload history</h2>
        <ReloadHistory />
      </section>
    </div>
  )
}
