import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { useSecretsFocus } from '../../state/store'
import { secretQueries } from './queries'
import type { SecretTarget } from './secret-target'
import { groupId, secretsSummary, shownServers } from './secrets-view'

/**
 * What the Secrets panel reads and holds: the references and session tokens (names and
 * presence, never values), the filters, the server another panel asked to show, and which
 * secret is being set or deleted.
 */
export function useSecretsPanel() {
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

  const summary = useMemo(
    () =>
      secretsSummary(
        shownServers(list.data?.servers ?? [], session.data ?? [], { text: filter, onlyMissing }),
      ),
    [list.data, session.data, filter, onlyMissing],
  )

  return {
    list,
    sessionTokens: session.data ?? [],
    focus,
    filter,
    setFilter,
    onlyMissing,
    setOnlyMissing,
    ...summary,
    editing,
    setEditing,
    deleting,
    setDeleting,
  }
}
