import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { ServerHealth } from '#shared/model/server'
import { Banner, EmptyState, Select, Spinner } from '../../ui'
import { ReloadHistory } from '../config/ReloadHistory'
import { serverQueries } from '../servers/queries'
import { ServerFilterBar } from '../servers/ServerFilterBar'
import { useServerGrouping } from '../servers/use-server-grouping'
import { HealthOverview } from './HealthOverview'
import { isCharted, timeAxis } from './health-view'
import { MetricsSettings } from './MetricsSettings'
import { ServerHealthSection } from './ServerHealthSection'
import './HealthPanel.css'

const NO_HEALTH: ServerHealth[] = []
const serverOf = (health: ServerHealth): string => health.server

/** Health is measured continuously in main; the panel reads it this often while shown. */
const POLL_MS = 5000
/** Past this many servers in view, charts are drawn for the one picked only (200 would be 800 charts). */
const CHARTED_SERVERS = 6

/**
 * Per server and operation: latency p50/p95/p99 over time, error rate by code, uptime, last
 * success and failure, rate-limit headroom; then the registry's reload history.
 */
export function HealthPanel(): React.JSX.Element {
  const health = useQuery({ ...serverQueries.health(), refetchInterval: POLL_MS })
  const [server, setServer] = useState<string>('')
  const { groups, bar } = useServerGrouping(health.data ?? NO_HEALTH, serverOf)
  const listed = useMemo(() => groups.flatMap((group) => group.items), [groups])
  const shown = useMemo(() => {
    if (server) return listed.filter((h) => h.server === server)
    return listed.length <= CHARTED_SERVERS ? listed : []
  }, [listed, server])
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
        <ServerFilterBar
          label="Filter servers"
          filter={bar.filter}
          onFilterChange={bar.onFilterChange}
        />
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
          {listed.length === 0 ? (
            <EmptyState icon="health" title="No server matches the filter" />
          ) : (
            <HealthOverview servers={listed} onSelect={setServer} />
          )}
          {!server && listed.length > CHARTED_SERVERS && (
            <p className="muted health__charts-hint" role="note">
              Charts are drawn for one server at a time with {listed.length} servers listed: pick
              one in the table or under Server, or narrow the filter to {CHARTED_SERVERS} or fewer.
            </p>
          )}
          {shown.map((h) => (
            <ServerHealthSection key={h.server} health={h} axis={axis} />
          ))}
        </>
      )}
      <section className="health__metrics" aria-label="Metrics for Prometheus">
        <h2>Metrics for Prometheus</h2>
        <p className="muted">
          The same series as <code>rag-console monitor</code> (calls by outcome, latency, up/down,
          canaries, reloads), served on this machine only for a Prometheus scrape. Port 0 picks any
          free one.
        </p>
        <MetricsSettings />
      </section>
      <section className="health__history" aria-label="Reload history">
        <h2>Reload history</h2>
        <ReloadHistory />
      </section>
    </div>
  )
}
