import { describe, expect, it } from 'vitest'
import type { Panel } from '#shared/panels'
import { buildMenuTemplate, type MenuItemTemplate } from './app-menu'

function menu(platform: NodeJS.Platform, developer = false) {
  const shown: Panel[] = []
  let dataFolderOpened = 0
  const template = buildMenuTemplate({
    platform,
    appName: 'RAG Console',
    developer,
    actions: {
      showPanel: (panel) => void shown.push(panel),
      openDataFolder: () => void (dataFolderOpened += 1),
    },
  })
  const top = (label: string): MenuItemTemplate[] =>
    template.find((item) => item.label === label)?.submenu ?? []
  const roles = (label: string): string[] => top(label).flatMap((item) => item.role ?? [])
  return { template, top, roles, shown, dataFolderOpened: () => dataFolderOpened }
}

describe('application menu', () => {
  it.each(['darwin', 'linux', 'win32'] as const)(
    'has the standard Edit roles on %s, so copy and paste work in text fields',
    (platform) => {
      expect(menu(platform).roles('Edit')).toEqual(
        expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']),
      )
    },
  )

  it('lists the eight panels under View with Ctrl/Cmd+1…8, in navigation order', () => {
    const { top } = menu('linux')
    const panels = top('View').filter((item) => item.id?.startsWith('panel-'))
    expect(panels.map((item) => [item.label, item.accelerator])).toEqual([
      ['Servers', 'CmdOrCtrl+1'],
      ['Search', 'CmdOrCtrl+2'],
      ['Access', 'CmdOrCtrl+3'],
      ['Health', 'CmdOrCtrl+4'],
      ['Config', 'CmdOrCtrl+5'],
      ['Audit', 'CmdOrCtrl+6'],
      ['Workbench', 'CmdOrCtrl+7'],
      ['Evaluation', 'CmdOrCtrl+8'],
    ])
  })

  it('asks for the chosen panel when a View item is clicked', () => {
    const { top, shown } = menu('win32')
    top('View')
      .find((item) => item.label === 'Audit')
      ?.click?.()
    top('View')
      .find((item) => item.label === 'Search')
      ?.click?.()
    expect(shown).toEqual(['audit', 'search'])
  })

  it('starts with the app menu on macOS only', () => {
    expect(menu('darwin').template[0]).toMatchObject({ label: 'RAG Console' })
    expect(menu('darwin').roles('RAG Console')).toEqual(
      expect.arrayContaining(['about', 'hide', 'quit']),
    )
    expect(menu('linux').template.map((item) => item.label)).toEqual([
      'File',
      'Edit',
      'View',
      'Window',
      'Help',
    ])
    expect(menu('linux').roles('File')).toEqual(['quit'])
  })

  it('offers developer tools only while developing', () => {
    expect(menu('linux', true).roles('View')).toContain('toggleDevTools')
    expect(menu('linux', false).roles('View')).not.toContain('toggleDevTools')
  })

  it('opens the data folder from Help', () => {
    const { top, dataFolderOpened } = menu('linux')
    top('Help')
      .find((item) => item.id === 'open-data-folder')
      ?.click?.()
    expect(dataFolderOpened()).toBe(1)
  })

  it('has Window and Help menus with their platform roles', () => {
    expect(menu('darwin').template.find((item) => item.label === 'Window')?.role).toBe('window')
    expect(menu('darwin').roles('Window')).toEqual(['minimize', 'zoom', 'front'])
    expect(menu('linux').roles('Window')).toEqual(['minimize', 'close'])
    expect(menu('linux').roles('Help')).toEqual(['about'])
  })
})
