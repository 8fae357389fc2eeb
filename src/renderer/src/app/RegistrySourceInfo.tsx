import { useQuery } from '@tanstack/react-query'
import type { RegistrySource } from '#shared/model/registry'
import { appQueries } from '../features/app/queries'
import { configQueries } from '../features/config/queries'
import { shortenPath } from '../lib/format'
import { Badge, Icon, Popover } from '../ui'
import './RegistrySourceInfo.css'

/** Where the running registry comes from, in the top bar; details in a popover. */
export function RegistrySourceInfo(): React.JSX.Element {
  const info = useQuery(appQueries.info())
  if (info.isError) return <span className="muted">registry unknown</span>
  if (!info.data) return <span className="muted">…</span>
  const source = info.data.registry
  return (
    <Popover
      label="Registry source"
      triggerClassName="registry-source"
      triggerPrefix="Registry:"
      trigger={<SourceSummary source={source} />}
      className="registry-source__popover"
    >
      <SourceDetails source={source} dataDir={info.data.dataDir} />
    </Popover>
  )
}

function SourceSummary({ source }: { source: RegistrySource }): React.JSX.Element {
  if (source.kind === 'embedded') {
    return (
      <>
        <Badge tone="info">demo registry</Badge>
        <span className="muted registry-source__path-none">no rag-mcp.json yet</span>
        <Icon name="chevronDown" size={12} />
      </>
    )
  }
  const main = source.writableFile ?? source.files.at(-1) ?? source.label
  return (
    <>
      <Icon name={source.kind === 'layered' ? 'layers' : 'file'} />
      <span className="registry-source__path" title={source.files.join('\n')}>
        {shortenPath(main, 72)}
      </span>
      {source.kind === 'layered' && source.files.length > 1 && (
        <Badge>+{source.files.length - 1} layer</Badge>
      )}
      <Icon name="chevronDown" size={12} />
    </>
  )
}

function SourceDetails({
  source,
  dataDir,
}: {
  source: RegistrySource
  dataDir: string
}): React.JSX.Element {
  const raw = useQuery(configQueries.raw())
  if (source.kind === 'embedded') {
    return (
      <div className="registry-source__details">
        <h3>Demo registry</h3>
        <p>
          No rag-mcp.json was found, so the console runs the embedded demo registry. To use your own
          servers, either:
        </p>
        <ul>
          <li>
            edit it in <strong>Config</strong> and save — that creates{' '}
            <code>{raw.data?.path ?? `${dataDir}/config/overrides/rag-mcp.json`}</code>;
          </li>
          <li>
            or start the console with <code>--config FILE</code> (or set <code>RAG_MCP_CONFIG</code>
            ).
          </li>
        </ul>
      </div>
    )
  }
  return (
    <div className="registry-source__details">
      <h3>{source.kind === 'layered' ? 'Layered registry' : 'Registry file'}</h3>
      <p className="muted">
        {source.kind === 'layered'
          ? 'Later files override earlier ones, field by field per server id.'
          : 'Given with --config or RAG_MCP_CONFIG.'}
      </p>
      <ol className="registry-source__files">
        {source.files.map((file) => (
          <li key={file}>
            <code>{file}</code>
            {file === source.writableFile && <Badge tone="info">saves go here</Badge>}
          </li>
        ))}
      </ol>
    </div>
  )
}
