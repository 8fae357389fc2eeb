import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Profile } from '#shared/model/user'
import { defaultProfile, SettingsStore } from './settings'
import { isVisibleTo } from './visibility'

const file = (): string => join(mkdtempSync(join(tmpdir(), 'rc-settings-')), 'settings.json')
const sales: Profile = {
  id: 'sales',
  name: 'Sales rep',
  userId: 'alice@example.com',
  sessionTags: ['department:sales'],
  groups: ['sales'],
}

describe('SettingsStore', () => {
  it('starts with a profile that lists every server', () => {
    const store = new SettingsStore(file())
    expect(store.active()).toMatchObject({ id: 'admin', groups: ['*'] })
  })

  it('names the default profile for whom the servers see: the OS user, every server listed', () => {
    const { name, userId } = new SettingsStore(file()).active()
    expect(userId).toBe(userInfo().username)
    expect(name).toBe(`${userInfo().username} (OS user, every server listed)`)
  })

  it('renames the former "Admin (sees every server)" default found in a settings file', () => {
    const path = file()
    const old = { ...defaultProfile(), name: 'Admin (sees every server)', userId: 'jdoe' }
    const settings = {
      version: 1,
      profiles: [old, sales],
      activeProfileId: 'admin',
      selections: {},
    }
    writeFileSync(path, JSON.stringify(settings))
    const store = new SettingsStore(path)
    expect(store.profiles().map((p) => p.name)).toEqual([
      'jdoe (OS user, every server listed)',
      'Sales rep',
    ])
    expect(store.recovered).toBeUndefined()
  })

  it('keeps profiles, the active one and selections across restarts', () => {
    const path = file()
    const store = new SettingsStore(path)
    store.saveProfile(sales)
    store.setActive('sales')
    store.setSelection('sales', 'docs', { handbook: true, legal: false })
    store.setSelection('sales', 'docs', { legal: true })
    const reopened = new SettingsStore(path)
    expect(reopened.active().id).toBe('sales')
    expect(reopened.profiles().map((p) => p.id)).toEqual(['admin', 'sales'])
    expect(reopened.selection('sales', 'docs')).toEqual({ handbook: true, legal: true })
    expect(reopened.selection('admin', 'docs')).toEqual({})
  })

  it('remembers a dismissed notice across restarts', () => {
    const path = file()
    const store = new SettingsStore(path)
    expect(store.dismissedNotices()).toEqual([])
    store.dismissNotice('keychain-unavailable')
    store.dismissNotice('keychain-unavailable')
    expect(new SettingsStore(path).dismissedNotices()).toEqual(['keychain-unavailable'])
  })

  it('reads the link policy an admin wrote in settings.json, allowing any host by default', () => {
    const path = file()
    expect(new SettingsStore(path).linkPolicy()).toEqual({
      allowHosts: [],
      denyHosts: [],
      privateHosts: [],
    })
    const store = new SettingsStore(path)
    store.saveProfile(sales)
    const written = JSON.parse(readFileSync(path, 'utf8'))
    written.linkPolicy = { denyHosts: ['intranet.example.com', '10.0.0.0/8'] }
    writeFileSync(path, JSON.stringify(written))
    const reopened = new SettingsStore(path)
    expect(reopened.recovered).toBeUndefined()
    expect(reopened.linkPolicy()).toEqual({
      allowHosts: [],
      denyHosts: ['intranet.example.com', '10.0.0.0/8'],
      privateHosts: [],
    })
    reopened.setLinkPolicy({ allowHosts: ['example.com'], denyHosts: [], privateHosts: [] })
    expect(new SettingsStore(path).linkPolicy().allowHosts).toEqual(['example.com'])
  })

  it('seeds profiles on a first run only, never over what the user saved', () => {
    const path = file()
    const first = new SettingsStore(path)
    expect(first.seedProfiles([sales], 'sales')).toBe(true)
    expect(first.active().id).toBe('sales')
    expect(first.seedProfiles([{ ...sales, id: 'again' }], 'again')).toBe(false)

    const reopened = new SettingsStore(path)
    expect(reopened.isFresh()).toBe(false)
    expect(reopened.seedProfiles([{ ...sales, id: 'again' }], 'again')).toBe(false)
    expect(reopened.profiles().map((p) => p.id)).toEqual(['admin', 'sales'])
  })

  it('refuses to delete the last profile and forgets a deleted profile’s selections', () => {
    const store = new SettingsStore(file())
    expect(() => store.deleteProfile('admin')).toThrow(/last profile/)
    store.saveProfile(sales)
    store.setSelection('sales', 'docs', { a: true })
    store.setActive('sales')
    store.deleteProfile('sales')
    expect(store.active().id).toBe('admin')
    expect(store.selection('sales', 'docs')).toEqual({})
  })

  it('moves an unreadable file aside instead of overwriting it', () => {
    const path = file()
    writeFileSync(path, '{ not json')
    const store = new SettingsStore(path)
    expect(store.recovered).toBeDefined()
    expect(readFileSync(store.recovered!, 'utf8')).toBe('{ not json')
    store.setActive('admin')
    expect(existsSync(path)).toBe(true)
  })

  it('rejects a profile without a user id', () => {
    const store = new SettingsStore(file())
    expect(() => store.saveProfile({ ...sales, userId: '' })).toThrow()
  })

  it('tells listeners about every change', () => {
    const store = new SettingsStore(file())
    let changes = 0
    store.onChanged(() => (changes += 1))
    store.saveProfile(sales)
    store.setSelection('sales', 's', { a: true })
    expect(changes).toBe(2)
  })
})

describe('isVisibleTo', () => {
  it('shows unrestricted things to everyone and restricted ones to members', () => {
    expect(isVisibleTo(undefined, sales)).toBe(true)
    expect(isVisibleTo([], sales)).toBe(true)
    expect(isVisibleTo(['sales', 'x'], sales)).toBe(true)
    expect(isVisibleTo(['legal'], sales)).toBe(false)
    expect(isVisibleTo(['legal'], { ...sales, groups: ['*'] })).toBe(true)
  })
})

describe('SettingsStore and edits made by hand while it runs', () => {
  const handEdit = (path: string, edit: (settings: Record<string, unknown>) => void): void => {
    const settings = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
    edit(settings)
    writeFileSync(path, JSON.stringify(settings))
  }

  it('keeps a profile added by hand when the console saves a change of its own', () => {
    const path = file()
    const store = new SettingsStore(path)
    store.setLinkPolicy({ allowHosts: [], denyHosts: ['10.0.0.0/8'], privateHosts: [] })
    handEdit(path, (s) => (s.profiles as Profile[]).push(sales))
    // The console sees the edit, and its next save keeps it.
    expect(store.profiles().map((p) => p.id)).toEqual(['admin', 'sales'])
    store.setActive('sales')
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { profiles: Profile[] }
    expect(saved.profiles.map((p) => p.id)).toEqual(['admin', 'sales'])
    expect(new SettingsStore(path).active().id).toBe('sales')
    expect(new SettingsStore(path).linkPolicy().denyHosts).toEqual(['10.0.0.0/8'])
  })

  it('reads one state of the file per synchronous run, and takes a hand edit in at the next', async () => {
    const path = file()
    const store = new SettingsStore(path)
    store.setActive('admin')
    expect(store.profiles().map((p) => p.id)).toEqual(['admin'])
    handEdit(path, (s) => (s.profiles as Profile[]).push(sales))
    // The rest of this run (a search planning 100 servers, say) sees what its first read saw…
    expect(store.profiles().map((p) => p.id)).toEqual(['admin'])
    await Promise.resolve()
    // …the next one sees the edit.
    expect(store.profiles().map((p) => p.id)).toEqual(['admin', 'sales'])
  })

  it('keeps a hand edit made within the run that saves a change of its own', () => {
    const path = file()
    const store = new SettingsStore(path)
    store.setActive('admin')
    expect(store.profiles().map((p) => p.id)).toEqual(['admin'])
    handEdit(path, (s) => (s.profiles as Profile[]).push(sales))
    store.setLinkPolicy({ allowHosts: [], denyHosts: ['10.0.0.0/8'], privateHosts: [] })
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { profiles: Profile[] }
    expect(saved.profiles.map((p) => p.id)).toEqual(['admin', 'sales'])
  })

  it('keeps a hand edit it cannot read aside instead of overwriting it, and says where', () => {
    const path = file()
    const told: string[] = []
    const store = new SettingsStore(path, undefined, (aside) => told.push(aside))
    store.setActive('admin')
    writeFileSync(path, '{ "version": 1, "profiles": [ oops')
    store.setMetrics({ enabled: true, port: 0 })
    const aside = readdirSync(dirname(path)).filter((name) => name.includes('.unreadable-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dirname(path), aside[0]!), 'utf8')).toBe(
      '{ "version": 1, "profiles": [ oops',
    )
    expect(new SettingsStore(path).metrics()).toEqual({ enabled: true, port: 0 })
    expect(store.keptAside()).toEqual([join(dirname(path), aside[0]!)])
    expect(told).toEqual(store.keptAside())
  })
})
