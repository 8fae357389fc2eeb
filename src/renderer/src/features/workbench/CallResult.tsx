import type { WorkbenchCallResult } from '#shared/ipc/workbench'
import { Badge, Banner } from '../../ui'
import { JsonBlock } from '../search/JsonBlock'
import { ContentBlocks } from './ContentBlocks'

const hasBlocks = (content: unknown): boolean => Array.isArray(content) && content.length > 0

/**
 * A tool's answer: its content blocks, structured content and the raw result. A result carried
 * in structured content alone says so instead of a bare "No content blocks".
 */
export function CallResult({ result }: { result: WorkbenchCallResult }) {
  const structured = result.result.structuredContent
  return (
    <section className="wb-result" aria-label="Result">
      <div className="wb-result__head">
        <h3>Result</h3>
        {result.isError ? <Badge tone="bad">tool error</Badge> : <Badge tone="ok">ok</Badge>}
        <span className="muted">
          {result.tool} · {result.latencyMs} ms
        </span>
      </div>
      {result.isError && (
        <Banner tone="bad" title={`${result.tool} reported an error (isError)`}>
          The server ran the call and answered with a tool error; its content is below.
        </Banner>
      )}
      {structured !== undefined && !hasBlocks(result.result.content) ? (
        <p className="muted">
          No content blocks: {result.tool} answered with structured content only (below).
        </p>
      ) : (
        <ContentBlocks blocks={result.result.content} label="Content blocks" />
      )}
      {structured !== undefined && <JsonBlock title="Structured content" value={structured} open />}
      <JsonBlock title="Raw result" value={result.result} />
    </section>
  )
}
