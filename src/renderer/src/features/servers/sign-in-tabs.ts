import type { OAuthStatus } from '#shared/ipc/auth'
import { isExternalHttpUrl } from '#shared/csp'

/** The part of a browser tab the console touches. */
export interface SignInTab {
  closed: boolean
  close: () => void
  location: { href: string }
}

/** Opens an empty tab, or returns null when the browser blocked it. */
export type TabOpener = () => SignInTab | null

/**
 * Browser tabs this page opened for a sign-in, waiting for the authorization URL.
 *
 * In the browser host nobody else can open the sign-in page: main only learns the URL after
 * the click, and a tab opened later than the click is a popup the browser blocks. So the click
 * opens an empty tab at once and the URL fills it when `auth:changed` brings it. Only the page
 * that clicked holds a tab, so other pages of the console never open one. (The desktop app opens
 * the system browser from main and never calls this.)
 */
export class SignInTabs {
  private readonly waiting = new Map<string, SignInTab>()

  constructor(private readonly openTab: TabOpener) {}

  /** Call synchronously in the click handler: opens the tab the URL will fill. */
  open(serverId: string): void {
    this.forget(serverId)
    const tab = this.openTab()
    if (tab) this.waiting.set(serverId, tab)
  }

  /**
   * A server's new sign-in state: its URL goes to the waiting tab; an end of the sign-in
   * before any URL closes the tab, which would stay empty.
   */
  update(status: OAuthStatus): void {
    const tab = this.waiting.get(status.serverId)
    if (!tab) return
    if (status.state === 'signing_in' && !status.authorizationUrl) return
    this.waiting.delete(status.serverId)
    if (tab.closed) return
    const url = status.authorizationUrl
    if (status.state === 'signing_in' && url && isExternalHttpUrl(url)) {
      tab.location.href = url
    } else tab.close()
  }

  /** The sign-in failed before it started: closes its empty tab. */
  forget(serverId: string): void {
    const tab = this.waiting.get(serverId)
    this.waiting.delete(serverId)
    if (tab && !tab.closed) tab.close()
  }
}

/** An empty tab with a line saying what it is for, cut off from this page. */
function openEmptyTab(): SignInTab | null {
  const tab = window.open('', '_blank')
  if (!tab) return null
  // The sign-in page must not reach back into the console.
  tab.opener = null
  tab.document.title = 'Signing in…'
  tab.document.body.textContent = 'Opening the sign-in page…'
  return tab
}

/** The tabs of this page. */
export const signInTabs = new SignInTabs(openEmptyTab)
