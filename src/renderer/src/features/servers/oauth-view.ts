import type { OAuthStatus } from '#shared/ipc/auth'
import type { Tone } from '../../ui'

/** What a person can do about a server's OAuth sign-in, as buttons on its card. */
export type OAuthAction = 'sign-in' | 'cancel' | 'sign-out'

/** A server's OAuth sign-in in words: a headline, the details after it, and what can be done. */
export interface OAuthView {
  tone: Tone
  /** `Sign-in required`, `Signing in…`, `Signed in as ana@example.com`, `Sign-in failed`. */
  label: string
  /** What follows the label: expiry, the error, or what to do next. */
  detail?: string
  /** The exact expiry time, for a tooltip. */
  expiresAt?: number
  /** Whether the access token is past its expiry. */
  expired?: boolean
  actions: OAuthAction[]
}

/**
 * How a server's card shows its OAuth state, or null for a server that does not use OAuth
 * (those cards show nothing new). `now` is epoch ms, for the relative expiry.
 */
export function oauthView(status: OAuthStatus | undefined, now = Date.now()): OAuthView | null {
  switch (status?.state) {
    case undefined:
    case 'none':
      return null
    case 'sign_in_required':
      return {
        tone: 'warn',
        label: 'Sign-in required',
        detail: status.authorizationServer
          ? `Sign in at ${hostOf(status.authorizationServer)} through your browser to connect.`
          : 'Sign in through your browser to connect.',
        actions: ['sign-in'],
      }
    case 'signing_in':
      return {
        tone: 'info',
        label: 'Signing in…',
        detail: 'Finish signing in on the page that opened in your browser.',
        actions: ['cancel'],
      }
    case 'signed_in': {
      const expiry = status.expiresAt === undefined ? null : describeExpiry(status.expiresAt, now)
      const expired = status.expiresAt !== undefined && status.expiresAt <= now
      return {
        tone: expired ? 'warn' : 'ok',
        label: status.account ? `Signed in as ${status.account}` : 'Signed in',
        ...(expiry && { detail: expiry, expiresAt: status.expiresAt }),
        expired,
        actions: ['sign-out'],
      }
    }
    case 'error':
      // Cancel is the person's own choice: the server is simply not signed in.
      if (status.error?.code === 'cancelled') {
        return {
          tone: 'warn',
          label: 'Sign-in required',
          detail: 'The sign-in was cancelled. Sign in to connect.',
          actions: ['sign-in'],
        }
      }
      // The keychain's message names its own remedy (unlock it, install a Secret Service).
      if (status.error?.code === 'keychain_unavailable') {
        return {
          tone: 'bad',
          label: 'Keychain unavailable',
          detail: sentence(status.error.message),
          actions: ['sign-in'],
        }
      }
      return {
        tone: 'bad',
        label: 'Sign-in failed',
        detail: `${sentence(status.error?.message ?? 'the sign-in did not finish')} Sign in again; if it fails again, check the server’s authorization settings.`,
        actions: ['sign-in'],
      }
  }
}

/**
 * `expires in 42 min`, `expires in 3 h`, `expired 5 min ago`. Rounds down while counting
 * towards the expiry, so the card never promises more time than the token has.
 */
export function describeExpiry(expiresAt: number, now = Date.now()): string {
  const left = expiresAt - now
  if (left <= 0) {
    const ago = Math.round(-left / 60_000)
    return ago < 1 ? 'expired just now' : `expired ${span(ago, Math.round)} ago`
  }
  const minutes = Math.floor(left / 60_000)
  return minutes < 1 ? 'expires in less than a minute' : `expires in ${span(minutes, Math.floor)}`
}

/** `42 min`, `3 h`, `2 d` from whole minutes. */
function span(minutes: number, round: (n: number) => number): string {
  if (minutes < 90) return `${minutes} min`
  const hours = round(minutes / 60)
  return hours < 48 ? `${hours} h` : `${round(hours / 24)} d`
}

/** The host of an authorization server's URL (the whole text when it is not one). */
function hostOf(url: string): string {
  try {
    return new URL(url).host || url
  } catch {
    return url
  }
}

const sentence = (text: string): string => {
  const trimmed = text.trim()
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1)
  return /[.!?]$/.test(capital) ? capital : `${capital}.`
}
