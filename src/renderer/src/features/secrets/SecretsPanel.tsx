import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import type { ServerSecrets, SessionTokenInfo } from '#shared/ipc/secrets'
import { listNames, plural } from '../../lib/format'
import { useSecretsFocus } from '../../state/store'
import { Banner, EmptyState, Spinner, Table, TextField, Toggle } from '../../ui'
import { DeleteSecretDialog } from './DeleteSecretDialog'
import { secretQueries } from './queries'
import type { SecretTarget } from './secret-target'
import { SecretValueDialog } from './SecretValueDialog'
import { ServerSecretRows } from './ServerSecretRows'
import './SecretsPanel.css'

/**
 * Per server, the secrets its config references, each set / missing / unknown, with set,
 * replace and delete. Values go to main and never come back.
 */
export function SecretsPanel(): React.JSX.Element {
  const list = useQuery(secretQueries.list())
  const session = useQuery(secretQueries.session())
  const focus = useSecretsFocus()
  const [filter, setFilter] = useState('')
  const [onlyMissing, setOnlyMissing] = useState(false)
  const [editing, setEditing] = useState<SecretTarget | null>(null)
  const [deleting, setDeleting] = useState<SecretTarget | null>(null)

  useEffect(() => {
    if (focus) document.getElementById(groupId(focus))?.scrollIntoView({ block: 'nearest' })
  }, [focus, list.data])

  const servers = useMemo(() => {
    const needle = filter.trim().toLowerCase()
    return (list.data?.servers ?? [])
      .filter((s) => !needle || s.server.toLowerCase().includes(needle))
      .map((s) => ({
        ...(onlyMissing ? { ...s, refs: s.refs.filter((r) => r.present !== true) } : s),
        // Tokens no reference names (a source's capability token); they are set, never missing.
        tokens: onlyMissing ? [] : unreferencedTokens(s, session.data ?? []),
      }))
  }, [list.data, session.data, filter, onlyMissing])

  if (list.isPending) return <Spinner label="Checking which secrets are set…" />
  if (list.isError) {
    return (
      <Banner tone="bad" title="Cannot list the secrets">
        {list.error.message}
      </Banner>
    )
  }
  const withRefs = servers.filter((s) => s.refs.length > 0 || s.tokens.length > 0)
  const without = servers
    .filter((s) => s.refs.length === 0 && s.tokens.length === 0)
    .map((s) => s.server)
  const refs = withRefs.flatMap((s) => s.refs)
  const missing = refs.filter((r) => r.present === false).length
  const tokenCount = withRefs.reduce((sum, s) => sum + s.tokens.length, 0)
  const counted = [
    refs.length > 0 || tokenCount === 0 ? plural(refs.length, 'reference') : '',
    tokenCount > 0 ? plural(tokenCount, 'capability token') : '',
  ]
    .filter(Boolean)
    .join(' and ')
  const keychain = list.data.keychain

  return (
    <div className="secrets">
      <div className="secrets__header">
        <p className="muted">
          {counted} in {plural(withRefs.length, 'server')}
          {missing > 0 ? ` · ${missing} missing` : ''}. Values are stored in the OS keychain (or for
          this session only) and are never shown again.
        </p>
        <Toggle checked={onlyMissing} onChange={setOnlyMissing} label="Only not set" />
        <TextField
          label="Filter servers"
          inline
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
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
              sessionTokens={session.data ?? []}
              capabilityTokens={server.tokens}
              keychainError={keychain.available ? undefined : keychain.error.message}
              onEdit={setEditing}
              onDelete={setDeleting}
            />
          ))}
        </Table>
      )}
      {without.length > 0 && !onlyMissing && (
        <p className="muted secrets__without" title={without.join(', ')}>
          No secret references: {listNames(without, 8)}.
        </p>
      )}
      <SecretValueDialog target={editing} onClose={() => setEditing(null)} />
      <DeleteSecretDialog target={deleting} onClose={() => setDeleting(null)} />
    </div>
  )
}

/** A server's session tokens that none of its `${session:…}` references names. */
function unreferencedTokens(
  server: ServerSecrets,
  tokens: readonly SessionTokenInfo[],
): SessionTokenInfo[] {
  const named = new Set(server.refs.filter((r) => r.kind === 'session').map((r) => r.name))
  return tokens.filter((t) => t.server === server.server && !named.has(t.name))
}

const groupId = (server: string): string => `secrets-${encodeURIComponent(server)}`
