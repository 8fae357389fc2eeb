import { useEffect, useState } from 'react'
import type { OAuthStatus } from '#shared/ipc/auth'
import { openExternal } from '../../api'
import { formatDateTime } from '../../lib/format'
import { Badge, Button, ConfirmDialog } from '../../ui'
import { oauthView } from './oauth-view'
import type { ServerActions } from './use-server-actions'
import './OAuthRow.css'

export interface OAuthRowProps {
  server: string
  oauth: OAuthStatus | undefined
  actions: Pick<ServerActions, 'busy' | 'signIn' | 'cancelSignIn' | 'signOut'>
  /** Where its tokens are kept: the keychain, or memory for a server tried in the Workbench. */
  kept?: 'keychain' | 'memory'
}

/**
 * A server's OAuth sign-in on its card (or where it is tried): who is signed in and until
 * when, or that a sign-in is needed, running or failed, with the button for it. Nothing for
 * servers without OAuth.
 */
export function OAuthRow({
  server,
  oauth,
  actions,
  kept = 'keychain',
}: OAuthRowProps): React.JSX.Element | null {
  useTicking(oauth?.expiresAt !== undefined)
  const [confirming, setConfirming] = useState(false)
  const view = oauthView(oauth)
  if (!view) return null
  const url = oauth?.state === 'signing_in' ? oauth.authorizationUrl : undefined
  const signingIn = actions.busy.has(`sign-in:${server}`)
  return (
    <div className="server-oauth" role="group" aria-label={`Sign-in for ${server}`}>
      <span className="server-oauth__term" aria-hidden="true">
        OAuth
      </span>
      <Badge tone={view.tone} dot title={oauth?.authorizationServer}>
        {view.label}
      </Badge>
      {view.detail && (
        <span
          className="server-oauth__detail"
          title={view.expiresAt === undefined ? undefined : formatDateTime(view.expiresAt)}
        >
          {view.detail}
        </span>
      )}
      {oauth?.state === 'signed_in' && oauth.scopes && oauth.scopes.length > 0 && (
        <span className="server-oauth__scopes muted" title="Scopes the token was granted">
          {oauth.scopes.join(' ')}
        </span>
      )}
      <span className="server-oauth__actions">
        {url && (
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            // The desktop app opens links in the system browser, never in its own window.
            onClick={(event) => {
              event.preventDefault()
              void openExternal(url)
            }}
          >
            Open sign-in page
          </a>
        )}
        {view.actions.includes('sign-in') && (
          <Button
            icon="key"
            busy={signingIn}
            onClick={() => void actions.signIn(server)}
            aria-label={`Sign in to ${server}`}
          >
            Sign in
          </Button>
        )}
        {view.actions.includes('cancel') && (
          <Button
            variant="ghost"
            icon="close"
            busy={actions.busy.has(`sign-in-cancel:${server}`)}
            onClick={() => void actions.cancelSignIn(server)}
            aria-label={`Cancel signing in to ${server}`}
          >
            Cancel
          </Button>
        )}
        {view.actions.includes('sign-out') && (
          <Button
            variant="ghost"
            busy={actions.busy.has(`sign-out:${server}`)}
            onClick={() => setConfirming(true)}
            aria-label={`Sign out of ${server}`}
          >
            Sign out
          </Button>
        )}
      </span>
      <ConfirmDialog
        open={confirming}
        title={`Sign out of ${server}?`}
        confirmLabel="Sign out"
        destructive
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false)
          void actions.signOut(server)
        }}
      >
        {oauth?.account ? `${oauth.account}’s` : 'The'} access and refresh tokens for {server} are
        {kept === 'keychain' ? ' deleted from the keychain' : ' forgotten'}. The console cannot use{' '}
        {server} until someone signs in again.
      </ConfirmDialog>
    </div>
  )
}

/** Renders again every 30 s while `ticking`, so a relative expiry stays true. */
function useTicking(ticking: boolean): void {
  const [, setTick] = useState(0)
  useEffect(() => {
    if (!ticking) return
    const timer = setInterval(() => setTick((tick) => tick + 1), 30_000)
    return () => clearInterval(timer)
  }, [ticking])
}
