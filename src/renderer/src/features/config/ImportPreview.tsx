import type {
  ImportApplyResult,
  ImportedServer,
  ImportPreview as Preview,
  ImportSource,
} from '#shared/ipc/registry'
import { plural } from '../../lib/format'
import { useSecretsRequested } from '../../state/store'
import { Badge, Banner, Button, EmptyRow, StatusBadge, Table } from '../../ui'
import { DiagnosticList } from './DiagnosticList'
import { ImportConfirm, SecretMoves } from './ImportConfirm'
import { connectionLine, isBlocked } from './import-view'
import { useImportPreview } from './use-import-preview'

const FORMS = { seed: 'rag-mcp.json', mcpServers: 'Claude Desktop / Cursor', servers: 'VS Code' }

export interface ImportPreviewProps {
  source: ImportSource
  preview: Preview
  onPreviewAgain: () => void
}

/** Per-server preview of an import with a checkbox each, and Apply for the selected ones. */
export function ImportPreview({
  source,
  preview,
  onPreviewAgain,
}: ImportPreviewProps): React.JSX.Element {
  const { selected, toggle, picked, applying, confirming, setConfirming, outcome, failure, apply } =
    useImportPreview(source, preview)
  const secretsRequested = useSecretsRequested()
  const fileProblems = preview.diagnostics
  return (
    <section className="import__preview" aria-label="Import preview">
      <h2>
        Preview: {plural(preview.servers.length, 'server')} in{' '}
        <code title={preview.from}>{preview.from}</code>{' '}
        <span className="muted">({FORMS[preview.form]} form)</span>
      </h2>
      <p className="muted">
        Merged into <code>{preview.target.path}</code>
        {preview.target.exists ? '' : ' (created)'}. Servers already configured the same way are
        left out.
      </p>
      <Table label="Servers to import">
        <thead>
          <tr>
            <th className="actions">Import</th>
            <th>Server</th>
            <th>Status</th>
            <th>Connection</th>
            <th>Problems</th>
          </tr>
        </thead>
        <tbody>
          {preview.servers.length === 0 && (
            <EmptyRow colSpan={5}>The file defines no servers.</EmptyRow>
          )}
          {preview.servers.map((server) => (
            <ServerRow
              key={server.id}
              server={server}
              checked={selected.has(server.id)}
              disabled={isBlocked(server) || outcome?.status === 'saved'}
              onToggle={(on) => toggle(server.id, on)}
            />
          ))}
        </tbody>
      </Table>
      <ImportSecrets preview={preview} />
      {fileProblems.length > 0 && (
        <details className="import__file-problems">
          <summary>{plural(fileProblems.length, 'note')} about the file</summary>
          <DiagnosticList diagnostics={fileProblems} />
        </details>
      )}
      {failure && (
        <Banner tone="bad" title="Import failed">
          {failure}
        </Banner>
      )}
      <ApplyOutcome
        outcome={outcome}
        onPreviewAgain={onPreviewAgain}
        onSetSecrets={(server) => secretsRequested(server)}
      />
      {outcome?.status !== 'saved' && (
        <div>
          <Button
            variant="primary"
            icon="import"
            busy={applying}
            disabled={selected.size === 0}
            onClick={() => setConfirming(true)}
          >
            Import {plural(selected.size, 'server')}…
          </Button>
        </div>
      )}
      <ImportConfirm
        open={confirming}
        target={preview.target}
        servers={picked.servers}
        secrets={picked.secrets}
        busy={applying}
        onConfirm={({ keepPlaintext }) => void apply(keepPlaintext)}
        onCancel={() => setConfirming(false)}
      />
    </section>
  )
}

/** One server of the file: its pick, status, connection and first problems. */
function ServerRow({
  server,
  checked,
  disabled,
  onToggle,
}: {
  server: ImportedServer
  checked: boolean
  disabled: boolean
  onToggle: (on: boolean) => void
}): React.JSX.Element {
  return (
    <tr>
      <td className="actions">
        <input
          type="checkbox"
          aria-label={`Import ${server.id}`}
          checked={checked}
          disabled={disabled}
          onChange={(event) => onToggle(event.target.checked)}
        />
      </td>
      <td>
        <code>{server.id}</code>
      </td>
      <td>
        <StatusBadge status={server.status} label={server.status === 'added' ? 'new' : undefined} />{' '}
        {server.fields.enabled === false && <Badge>disabled</Badge>}
      </td>
      <td className="import__connection" title={connectionLine(server.fields)}>
        <code>{connectionLine(server.fields)}</code>
      </td>
      <td className="import__problems">
        {server.diagnostics.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          server.diagnostics.slice(0, 2).map((d, i) => (
            <div key={i} className={d.severity === 'error' ? 'import__error' : 'muted'}>
              {d.message}
            </div>
          ))
        )}
      </td>
    </tr>
  )
}

/** The secrets to set after importing and the credentials that go to the keychain. */
function ImportSecrets({ preview }: { preview: Preview }): React.JSX.Element {
  return (
    <>
      {preview.requiredSecrets.length > 0 && (
        <Banner tone="info" role="none" title="Secrets to set after importing">
          <ul className="import__secrets">
            {preview.requiredSecrets.map((secret) => (
              <li key={`${secret.server}/${secret.name}`}>
                <code>
                  {secret.server}/{secret.name}
                </code>{' '}
                — {secret.reason}
              </li>
            ))}
          </ul>
        </Banner>
      )}
      {preview.secretsToMove.length > 0 && (
        <Banner tone="info" role="none" title="Credentials that go to the keychain">
          These values look like credentials. Importing stores them in the OS keychain and writes
          references into the file (you can choose to keep them in plain text when you apply):
          <SecretMoves secrets={preview.secretsToMove} className="import__secrets" />
        </Banner>
      )}
    </>
  )
}

function ApplyOutcome({
  outcome,
  onPreviewAgain,
  onSetSecrets,
}: {
  outcome: ImportApplyResult | null
  onPreviewAgain: () => void
  onSetSecrets: (server: string) => void
}): React.JSX.Element | null {
  if (!outcome) return null
  if (outcome.status === 'conflict') {
    return (
      <Banner
        tone="warn"
        title={
          outcome.untrusted
            ? 'rag-mcp.json could not be read whole'
            : 'rag-mcp.json changed since this preview'
        }
        actions={<Button onClick={onPreviewAgain}>Preview again</Button>}
      >
        {outcome.untrusted ?? 'Nothing was written. Preview again to merge into the current file.'}
      </Banner>
    )
  }
  if (outcome.status === 'invalid') {
    return (
      <Banner tone="bad" title="Nothing was written: the merged file would be invalid">
        <DiagnosticList diagnostics={outcome.diagnostics} max={6} />
      </Banner>
    )
  }
  const first = outcome.requiredSecrets[0]
  const moved = outcome.movedSecrets.length
  return (
    <Banner
      tone="ok"
      title={`Imported ${plural(outcome.imported.length, 'server')}: ${outcome.imported.join(', ')}`}
      actions={first && <Button onClick={() => onSetSecrets(first.server)}>Set secrets…</Button>}
    >
      {moved > 0 && `${plural(moved, 'credential')} moved to the keychain. `}
      {first
        ? `${plural(outcome.requiredSecrets.length, 'secret')} must be set before they can connect.`
        : 'They are in the running registry now.'}
    </Banner>
  )
}
