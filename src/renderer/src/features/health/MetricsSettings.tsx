import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { MetricsState } from '#shared/ipc/app'
import { call } from '../../api'
import { Banner, Button, CopyButton, TextField, Toggle } from '../../ui'
import { parsePort } from './health-view'

const METRICS_KEY = ['metrics'] as const

/**
 * The opt-in Prometheus endpoint (`metrics` in settings.json): on or off, and its loopback
 * port; it moves at once, and says why when it cannot.
 */
export function MetricsSettings(): React.JSX.Element | null {
  const state = useQuery({ queryKey: METRICS_KEY, queryFn: () => call('metrics:get') })
  if (state.isError) {
    return (
      <Banner tone="bad" title="The metrics setting could not be read">
        {state.error.message}
      </Banner>
    )
  }
  return state.data ? <MetricsForm saved={state.data} /> : null
}

function MetricsForm({ saved }: { saved: MetricsState }): React.JSX.Element {
  const queryClient = useQueryClient()
  const [portText, setPortText] = useState(String(saved.port))
  const port = parsePort(portText)
  const apply = useMutation({
    mutationFn: (next: { enabled: boolean; port: number }) => call('metrics:set', next),
    onSuccess: (now) => {
      queryClient.setQueryData(METRICS_KEY, now)
      setPortText(String(now.port))
    },
  })
  const portError = port === undefined ? 'A port is a number from 0 to 65535' : undefined
  return (
    <form
      className="health__metrics-form"
      aria-label="Prometheus metrics"
      onSubmit={(event) => {
        event.preventDefault()
        if (port !== undefined) apply.mutate({ enabled: true, port })
      }}
    >
      <Toggle
        label="Serve /metrics"
        checked={saved.enabled}
        disabled={apply.isPending || (!saved.enabled && port === undefined)}
        onChange={(enabled) => apply.mutate({ enabled, port: port ?? saved.port })}
      />
      <TextField
        label="Port on 127.0.0.1"
        inline
        mono
        inputMode="numeric"
        className="health__metrics-port"
        value={portText}
        error={portError}
        onChange={(event) => setPortText(event.target.value)}
      />
      {saved.enabled && port !== undefined && port !== saved.port && (
        <Button type="submit" variant="secondary" disabled={apply.isPending}>
          Move to port {port}
        </Button>
      )}
      {saved.url ? (
        <span className="health__metrics-url">
          Serving at <code>{saved.url}</code>
          <CopyButton text={saved.url} label="Copy the metrics URL" />
        </span>
      ) : (
        <span className="muted">Not served: Prometheus cannot scrape this console.</span>
      )}
      {(saved.error ?? apply.error?.message) && (
        <Banner tone="bad" title="The metrics endpoint did not change">
          {saved.error ?? apply.error?.message}
        </Banner>
      )}
    </form>
  )
}
