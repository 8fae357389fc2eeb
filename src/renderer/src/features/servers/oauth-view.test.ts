import { describe, expect, it } from 'vitest'
import type { OAuthStatus } from '#shared/ipc/auth'
import { describeExpiry, oauthView } from './oauth-view'

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0)
const MIN = 60_000

const status = (state: OAuthStatus['state'], extra: Partial<OAuthStatus> = {}): OAuthStatus => ({
  serverId: 'wiki',
  state,
  ...extra,
})

describe('oauthView', () => {
  it('shows nothing for a server that does not use OAuth', () => {
    expect(oauthView(undefined, NOW)).toBeNull()
    expect(oauthView(status('none'), NOW)).toBeNull()
  })

  it('asks for a sign-in, naming the authorization server’s host', () => {
    const view = oauthView(
      status('sign_in_required', { authorizationServer: 'http://127.0.0.1:4100/oauth' }),
      NOW,
    )
    expect(view).toMatchObject({
      tone: 'warn',
      label: 'Sign-in required',
      detail: 'Sign in at 127.0.0.1:4100 through your browser to connect.',
      actions: ['sign-in'],
    })
  })

  it('asks for a sign-in through the browser when the authorization server is not known yet', () => {
    expect(oauthView(status('sign_in_required'), NOW)?.detail).toBe(
      'Sign in through your browser to connect.',
    )
  })

  it('offers only Cancel while a sign-in runs', () => {
    expect(oauthView(status('signing_in'), NOW)).toMatchObject({
      tone: 'info',
      label: 'Signing in…',
      actions: ['cancel'],
    })
  })

  it('names the signed-in account and when its token expires', () => {
    const view = oauthView(
      status('signed_in', { account: 'ana@example.com', expiresAt: NOW + 42 * MIN + 30_000 }),
      NOW,
    )
    expect(view).toEqual({
      tone: 'ok',
      label: 'Signed in as ana@example.com',
      detail: 'expires in 42 min',
      expiresAt: NOW + 42 * MIN + 30_000,
      expired: false,
      actions: ['sign-out'],
    })
  })

  it('says “Signed in” without an account, and no expiry when none was given', () => {
    const view = oauthView(status('signed_in'), NOW)
    expect(view?.label).toBe('Signed in')
    expect(view?.detail).toBeUndefined()
    expect(view?.expiresAt).toBeUndefined()
  })

  it('warns when the access token is past its expiry', () => {
    const view = oauthView(status('signed_in', { account: 'ana', expiresAt: NOW - 5 * MIN }), NOW)
    expect(view).toMatchObject({ tone: 'warn', detail: 'expired 5 min ago', expired: true })
  })

  it('shows a failed sign-in’s message and the next step, with Sign in to retry', () => {
    const view = oauthView(
      status('error', {
        error: { code: 'unauthorized', message: 'the authorization server refused the code' },
      }),
      NOW,
    )
    expect(view?.tone).toBe('bad')
    expect(view?.label).toBe('Sign-in failed')
    expect(view?.detail).toMatch(/^The authorization server refused the code\. Sign in again/)
    expect(view?.actions).toEqual(['sign-in'])
  })

  it('leaves the next step of a keychain failure to its message, with no sign-in advice', () => {
    const message =
      'cannot read keychain entry "wiki/oauth.tokens": the keyring is locked: unlock it'
    const view = oauthView(
      status('error', { error: { code: 'keychain_unavailable', message } }),
      NOW,
    )
    expect(view).toMatchObject({
      tone: 'bad',
      label: 'Keychain unavailable',
      detail: 'Cannot read keychain entry "wiki/oauth.tokens": the keyring is locked: unlock it.',
      actions: ['sign-in'],
    })
  })

  it('treats a cancelled sign-in as not signed in, not as a failure', () => {
    const view = oauthView(
      status('error', { error: { code: 'cancelled', message: 'sign-in cancelled' } }),
      NOW,
    )
    expect(view).toMatchObject({
      tone: 'warn',
      label: 'Sign-in required',
      detail: 'The sign-in was cancelled. Sign in to connect.',
      actions: ['sign-in'],
    })
  })
})

describe('describeExpiry', () => {
  it('counts down in whole minutes, never promising more time than is left', () => {
    expect(describeExpiry(NOW + 42 * MIN + 59_000, NOW)).toBe('expires in 42 min')
    expect(describeExpiry(NOW + 30_000, NOW)).toBe('expires in less than a minute')
  })

  it('switches to hours past 90 minutes and to days past 48 hours', () => {
    expect(describeExpiry(NOW + 89 * MIN, NOW)).toBe('expires in 89 min')
    expect(describeExpiry(NOW + 150 * MIN, NOW)).toBe('expires in 2 h')
    expect(describeExpiry(NOW + 3 * 24 * 60 * MIN, NOW)).toBe('expires in 3 d')
  })

  it('says how long ago a token expired', () => {
    expect(describeExpiry(NOW, NOW)).toBe('expired just now')
    expect(describeExpiry(NOW - 20_000, NOW)).toBe('expired just now')
    expect(describeExpiry(NOW - 3 * 60 * MIN, NOW)).toBe('expired 3 h ago')
  })
})
