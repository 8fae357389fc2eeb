import { useState } from 'react'
import type { ImportedServer, SecretToMove } from '#shared/ipc/registry'
import { plural } from '../../lib/format'
import { ConfirmDialog } from '../../ui'

export interface ImportConfirmProps {
  open: boolean
  /** The file the servers are merged into. */
  target: { path: string; exists: boolean }
  servers: ImportedServer[]
  secrets: SecretToMove[]
  busy: boolean
  onConfirm: (options: { keepPlaintext: boolean }) => void
  onCancel: () => void
}

/** The last step before an import writes: what goes where, and what happens to credentials. */
export function ImportConfirm({
  open,
  target,
  servers,
  secrets,
  busy,
  onConfirm,
  onCancel,
}: ImportConfirmProps): React.JSX.Element {
  const [keepPlaintext, setKeepPlaintext] = useState(false)
  return (
    <ConfirmDialog
      open={open}
      title={`Import ${plural(servers.length, 'server')}?`}
      confirmLabel="Import"
      busy={busy}
      onConfirm={() => onConfirm({ keepPlaintext })}
      onCancel={onCancel}
    >
      <p>
        {target.exists ? 'Writes' : 'Creates'} <code className="import__target">{target.path}</code>
        {target.exists ? ' (the previous version is kept as .bak)' : ''} and applies it:
      </p>
      <ul className="import__confirm-list">
        {servers.map((server) => (
          <li key={server.id}>
            <code>{server.id}</code> {server.status === 'added' ? 'is added' : 'is changed'}
            {server.fields.enabled === false ? ', disabled' : ''}
          </li>
        ))}
      </ul>
      {secrets.length > 0 && (
        <>
          <p>
            {plural(secrets.length, 'credential')} found in plain text:{' '}
            {keepPlaintext
              ? 'written into the file as they are.'
              : 'stored in the OS keychain; the file gets references to them.'}
          </p>
          {!keepPlaintext && <SecretMoves secrets={secrets} className="import__confirm-list" />}
          <label className="import__keep-plaintext">
            <input
              type="checkbox"
              checked={keepPlaintext}
              onChange={(event) => setKeepPlaintext(event.target.checked)}
            />
            Keep them in plain text in rag-mcp.json (anyone who can read the file can use them)
          </label>
        </>
      )}
    </ConfirmDialog>
  )
}

/** Each credential's place in the imported file and the reference that replaces it. */
export function SecretMoves({
  secrets,
  className,
}: {
  secrets: SecretToMove[]
  className: string
}): React.JSX.Element {
  return (
    <ul className={className}>
      {secrets.map((secret) => (
        <li key={`${secret.server}/${secret.where}`}>
          <code>
            {secret.server} {secret.where}
          </code>{' '}
          → <code>{`\${keychain:${secret.name}}`}</code>
        </li>
      ))}
    </ul>
  )
}
