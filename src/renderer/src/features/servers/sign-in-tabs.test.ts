import { describe, expect, it } from 'vitest'
import type { OAuthStatus } from '#shared/ipc/auth'
import { SignInTabs, type SignInTab } from './sign-in-tabs'

const URL = 'http://127.0.0.1:4100/authorize?client_id=rc&state=s1'

/** A tab as the browser gives it: where it is, and whether it was closed. */
function tab(): SignInTab {
  const t = {
    closed: false,
    close: () => void (t.closed = true),
    location: { href: 'about:blank' },
  }
  return t
}

function setup(blocked = false) {
  const opened: SignInTab[] = []
  const tabs = new SignInTabs(() => {
    if (blocked) return null
    const t = tab()
    opened.push(t)
    return t
  })
  return { tabs, opened }
}

const status = (state: OAuthStatus['state'], extra: Partial<OAuthStatus> = {}): OAuthStatus => ({
  serverId: 'wiki',
  state,
  ...extra,
})

describe('SignInTabs', () => {
  it('sends the tab opened by the click to the authorization URL once it arrives', () => {
    const { tabs, opened } = setup()
    tabs.open('wiki')
    tabs.update(status('signing_in'))
    expect(opened[0]?.location.href).toBe('about:blank')
    tabs.update(status('signing_in', { authorizationUrl: URL }))
    expect(opened[0]?.location.href).toBe(URL)
    expect(opened[0]?.closed).toBe(false)
  })

  it('opens nothing for a sign-in another page or the desktop started', () => {
    const { tabs, opened } = setup()
    tabs.open('other')
    tabs.update(status('signing_in', { authorizationUrl: URL }))
    expect(opened[0]?.location.href).toBe('about:blank')
  })

  it('navigates a tab once: a later event for the same server leaves it alone', () => {
    const { tabs, opened } = setup()
    tabs.open('wiki')
    tabs.update(status('signing_in', { authorizationUrl: URL }))
    tabs.update(status('signed_in'))
    expect(opened[0]).toMatchObject({ closed: false, location: { href: URL } })
  })

  it('closes its empty tab when the sign-in ends before a URL came', () => {
    const { tabs, opened } = setup()
    tabs.open('wiki')
    tabs.update(status('error', { error: { code: 'unsupported', message: 'no' } }))
    expect(opened[0]?.closed).toBe(true)
  })

  it('never sends the tab to a URL that is not http(s)', () => {
    const { tabs, opened } = setup()
    tabs.open('wiki')
    tabs.update(status('signing_in', { authorizationUrl: 'javascript:alert(1)' }))
    expect(opened[0]).toMatchObject({ closed: true, location: { href: 'about:blank' } })
  })

  it('closes the empty tab of a sign-in that failed to start', () => {
    const { tabs, opened } = setup()
    tabs.open('wiki')
    tabs.forget('wiki')
    expect(opened[0]?.closed).toBe(true)
  })

  it('keeps going when the browser blocked the tab (the card links to the page instead)', () => {
    const { tabs } = setup(true)
    tabs.open('wiki')
    expect(() => tabs.update(status('signing_in', { authorizationUrl: URL }))).not.toThrow()
  })
})
