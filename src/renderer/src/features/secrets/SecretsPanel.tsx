import { listNames, plural } from '../../lib/format'
import { Banner, EmptyState, Spinner, Table, TextField, Toggle } from '../../ui'
import { DeleteSecretDialog } from './DeleteSecretDialog'
import { groupId } from './secrets-view'
import { SecretValueDialog } from './SecretValueDialog'
import { ServerSecretRows } from './ServerSecretRows'
import { useSecretsPanel } from './use-secrets-panel'
import './SecretsPanel.css'

/**
 * Per server, the secrets its config references, each set / missing / unknown, with set,
 * replace and delete. Values go to main and never come back.
 */
export function SecretsPanel(): React.JSX.Element {
  const panel = useSecretsPanel()
  const { list, focus, filter, onlyMissing, withRefs, without } = panel

  if (list.isPending) return <Spinner label="Checking which secrets are set…" />
  if (list.isError) {
    return (
      <Banner tone="bad" title="Cannot list the secrets">
        {list.error.message}
      </Banner>
    )
  }
  const keychain = list.data.keychain

  return (
    <div className="secrets">
      <div className="secrets__header">
        <p className="muted">
          {panel.counted} in {plural(withRefs.length, 'server')}
          {panel.missing > 0 ? ` · ${panel.missing} missing` : ''}. Values are stored in the OS
          keychain (or for this session only) and are never shown again.
        </p>
        <Toggle checked={onlyMissing} onChange={panel.setOnlyMissing} label="Only not set" />
        <TextField
          label="Filter servers"
          inline
          value={filter}
          onChange={(event) => panel.setFilter(event.target.value)}
          type="search"
          fieldClassName="secrets__filter"
        />
      </div>
      {!keychain.available && (
        <Banner
          tone="warn"
          title="The OS keychain cannot be read: whether keychain secrets are set is unknown"
        >
          {keychain.error.message}
        </Banner>
      )}
      {withRefs.length === 0 ? (
        <EmptyState
          icon="key"
          title={filter || onlyMissing ? 'Nothing matches the filter' : 'No secret references'}
        >
          Servers reference secrets as <code>{'${keychain:NAME}'}</code> (or{' '}
          <code>{'${session:NAME}'}</code>) in their url, headers or env; each appears here to be
          set.
        </EmptyState>
      ) : (
        <Table label="Secret references by server" className="secrets__table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Kept in</th>
              <th>Used in</th>
              <th>Status</th>
              <th className="actions">Actions</th>
            </tr>
          </thead>
          {withRefs.map((server) => (
            <ServerSecretRows
              key={server.server}
              id={groupId(server.server)}
              server={server}
              highlighted={focus === server.server}
              sessionTokens={panel.sessionTokens}
              capabilityTokens={server.tokens}
              keychainError={keychain.available ? undefined : keychain.error.message}
              onEdit={panel.setEditing}
              onDelete={panel.setDeleting}
            />
          ))}
        </Table>
      )}
      {without.length > 0 && !onlyMissing && (
        <p className="muted secrets__without" title={without.join(', ')}>
          No secret references: {listNames(without, 8)}.
        </p>
      )}
      <SecretValueDialog target={panel.editing} onClose={() => panel.setEditing(null)} />
      <DeleteSecretDialog target={panel.deleting} onClose={() => panel.setDeleting(null)} />
    </div>
  )
}
