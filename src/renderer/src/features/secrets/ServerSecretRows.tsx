import type { SecretRefStatus, ServerSecrets, SessionTokenInfo } from '#shared/ipc/secrets'
import { formatAgo } from '../../lib/format'
import { Badge, Button, cx, IconButton, StatusBadge } from '../../ui'
import type { SecretTarget } from './secret-target'
import { KIND_LABEL, missingCount, refStatus, secretTarget } from './secrets-view'

export interface ServerSecretRowsProps {
  id: string
  server: ServerSecrets
  highlighted: boolean
  sessionTokens: readonly SessionTokenInfo[]
  /** Session tokens no reference names: capability tokens given from a source's row. */
  capabilityTokens: readonly SessionTokenInfo[]
  keychainError: string | undefined
  onEdit: (target: SecretTarget) => void
  onDelete: (target: SecretTarget) => void
}

/** One server's group of rows in the secrets table. */
export function ServerSecretRows({
  id,
  server,
  highlighted,
  sessionTokens,
  capabilityTokens,
  keychainError,
  onEdit,
  onDelete,
}: ServerSecretRowsProps): React.JSX.Element {
  const missing = missingCount(server.refs)
  return (
    <tbody
      id={id}
      aria-label={server.server}
      className={cx('secrets__group', highlighted && 'secrets__group--focus')}
    >
      <tr className="secrets__server">
        <th colSpan={5} scope="rowgroup">
          <code>{server.server}</code>
          {missing > 0 && <Badge tone="bad">{missing} missing</Badge>}
        </th>
      </tr>
      {server.refs.map((ref) => (
        <SecretRefRow
          key={`${ref.kind}:${ref.name}`}
          server={server.server}
          secret={ref}
          token={sessionTokens.find((t) => t.server === server.server && t.name === ref.name)}
          keychainError={keychainError}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      ))}
      {capabilityTokens.map((token) => (
        <CapabilityTokenRow
          key={`token:${token.name}`}
          server={server.server}
          token={token}
          onDelete={onDelete}
        />
      ))}
    </tbody>
  )
}

interface SecretRefRowProps extends Pick<
  ServerSecretRowsProps,
  'keychainError' | 'onEdit' | 'onDelete'
> {
  server: string
  secret: SecretRefStatus
  /** The session token of this name, when one is held (its time shows in the status). */
  token: SessionTokenInfo | undefined
}

/** A secret the server's config references: where it is kept and used, whether it is set. */
function SecretRefRow({
  server,
  secret: ref,
  token,
  keychainError,
  onEdit,
  onDelete,
}: SecretRefRowProps): React.JSX.Element {
  const who = `${ref.name} for ${server}`
  const status = refStatus(ref)
  const target = (kind: SecretTarget['kind']): SecretTarget => secretTarget(server, ref, kind)
  return (
    <tr aria-label={`${ref.kind} secret ${ref.name}`}>
      <td>
        <code>{ref.name}</code>
      </td>
      <td>
        <Badge tone={ref.kind === 'session' ? 'info' : 'neutral'}>{KIND_LABEL[ref.kind]}</Badge>
      </td>
      <td className="secrets__where">
        <code>{ref.where.join(', ')}</code>
      </td>
      <td>
        <StatusBadge
          status={status}
          label={token && ref.present ? `set ${formatAgo(token.setAt)}` : undefined}
          title={status === 'unknown' ? keychainError : undefined}
        />
      </td>
      <td className="actions">
        {ref.kind === 'env' ? (
          <span className="muted">
            set <code>{ref.name}</code> in the console's environment, then restart it
          </span>
        ) : (
          <span className="secrets__actions">
            <Button
              aria-label={`${ref.present ? 'Replace' : 'Set'} ${who}`}
              onClick={() => onEdit(target(ref.kind as SecretTarget['kind']))}
              icon={ref.present ? 'edit' : 'key'}
            >
              {ref.present ? 'Replace…' : 'Set…'}
            </Button>
            {ref.kind === 'keychain' ? (
              <IconButton
                icon="trash"
                tone="danger"
                label={`Delete ${who}`}
                disabled={ref.present === false}
                onClick={() => onDelete(target('keychain'))}
              />
            ) : (
              <IconButton
                icon="close"
                tone="danger"
                label={`Clear session token ${who}`}
                disabled={!ref.present}
                onClick={() => onDelete(target('session'))}
              />
            )}
          </span>
        )}
      </td>
    </tr>
  )
}

/** A session token no reference names: a source's capability token, set until cleared. */
function CapabilityTokenRow({
  server,
  token,
  onDelete,
}: {
  server: string
  token: SessionTokenInfo
  onDelete: (target: SecretTarget) => void
}): React.JSX.Element {
  return (
    <tr aria-label={`session token ${token.name}`}>
      <td>
        <code>{token.name}</code>
      </td>
      <td>
        <Badge tone="info">{KIND_LABEL.session}</Badge>
      </td>
      <td className="secrets__where">capability token of source {token.name}</td>
      <td>
        <StatusBadge status="set" label={`set ${formatAgo(token.setAt)}`} />
      </td>
      <td className="actions">
        <span className="secrets__actions">
          <IconButton
            icon="close"
            tone="danger"
            label={`Clear session token ${token.name} for ${server}`}
            onClick={() =>
              onDelete(secretTarget(server, { name: token.name, present: true }, 'session'))
            }
          />
        </span>
      </td>
    </tr>
  )
}
