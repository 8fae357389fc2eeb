import { readFileSync } from 'node:fs'
import type { Locator, Page } from '@playwright/test'
import type { GoldenSet } from '#shared/model/evaluation'
import { expect, httpServer, invoke, PANELS, test } from './console'
import { actAsCarol, dataDirWithDemoSet, demoRegistry, saveDemoUsers, useDemoServers } from './demo'
import { expectFocusVisible, tabTo } from './focus'

/**
 * Each role's main task with the keyboard only (no click after the page loads): every Tab stop
 * on the way shows that it has focus, and focus comes back to where it was when a dialog closes.
 */

const demo = useDemoServers()

const main = (page: Page, panel: string) => page.getByRole('main', { name: panel })

test('an admin edits, saves and reloads the registry with the keyboard', async ({
  page,
  launch,
}) => {
  const { host, file } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible()
  await page.keyboard.press('ControlOrMeta+5')
  const config = main(page, 'Config')
  await expect(config.getByRole('heading', { name: 'Config', level: 1 })).toBeFocused()
  const editor = config.getByRole('textbox', { name: 'rag-mcp.json' })
  await tabTo(page, editor)
  await expect(editor).toContainText('"alpha"')

  // The file ends "  }\n}\n": after alpha's closing brace, a second server.
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('End')
  await page.keyboard.type(',\n"beta": {"url": "http://127.0.0.1:9/beta"')
  await expect(config.getByRole('toolbar', { name: 'Config file' })).toContainText(
    'unsaved changes',
  )
  await expect(config.getByRole('toolbar', { name: 'Config file' })).toContainText('valid')

  // Ctrl+S opens the preview; Tab reaches "Save and apply"; focus comes back to the editor.
  await page.keyboard.press('ControlOrMeta+s')
  const save = page.getByRole('dialog', { name: 'Save rag-mcp.json?' })
  await expect(save).toContainText('beta')
  await expectFocusVisible(page, 'in the save dialog')
  await tabTo(page, save.getByRole('button', { name: 'Save and apply' }))
  await page.keyboard.press('Enter')
  await expect(save).toBeHidden()
  await expect(editor).toBeFocused()
  await expect(config.getByRole('toolbar', { name: 'Config file' })).toContainText('saved')
  expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty(
    'beta.url',
    'http://127.0.0.1:9/beta',
  )

  // Reload now, from the toolbar: the file on disk is what was saved, as typed.
  await tabTo(page, config.getByRole('button', { name: 'Reload now' }), { back: true })
  await page.keyboard.press('Enter')
  await expect(
    page.getByRole('status').filter({ hasText: 'Reloaded: nothing changed.' }),
  ).toBeVisible()
  expect(readFileSync(file, 'utf8')).toContain('  "beta": {"url": "http://127.0.0.1:9/beta"}\n}')
  await page.keyboard.press('ControlOrMeta+1')
  await expect(
    main(page, 'Servers').getByRole('region', { name: 'beta', exact: true }),
  ).toBeVisible()
})

test('an analyst searches, inspects a hit and judges it with the keyboard', async ({
  page,
  launch,
}) => {
  const { host } = await launch(demoRegistry(demo()), {
    env: { ...demo().env, RAG_CONSOLE_HOME: dataDirWithDemoSet() },
  })
  await page.goto(host.url)
  await actAsCarol(page)
  await saveDemoUsers(page)
  await page.keyboard.press('ControlOrMeta+2')
  const search = main(page, 'Search')
  await expect(search.getByRole('heading', { name: 'Search', level: 1 })).toBeFocused()

  // Judge into the demo set: a select, chosen by typing its name.
  const judgeInto = search.getByRole('combobox', { name: 'Judge into' })
  await tabTo(page, judgeInto)
  await page.keyboard.type('Demo')
  await expect(judgeInto).toHaveValue('demo')

  const query = search.getByRole('searchbox', { name: 'Query' })
  await tabTo(page, query, { back: true })
  // A query the demo set does not have yet: judging it adds it.
  await page.keyboard.type('vpn troubleshooting guide')
  await page.keyboard.press('ControlOrMeta+Enter')
  const hits = search.getByRole('listbox', { name: 'Merged hits' })
  await expect(hits.getByRole('option').first()).toBeVisible()

  // The list: arrows choose a hit and open it in the inspector; a digit judges it.
  await tabTo(page, hits)
  await page.keyboard.press('ArrowDown')
  const first = hits.getByRole('option').first()
  await expect(first).toHaveAttribute('aria-selected', 'true')
  const inspector = search.getByRole('complementary', { name: 'Hit inspector' })
  await expect(inspector).toBeVisible()
  await page.keyboard.press('2')
  await expect(first.getByRole('radio', { name: 'highly relevant' })).toBeChecked()

  // Into the inspector and its grade: arrows move it, as in any radio group.
  const grade = inspector.getByRole('radio', { name: 'highly relevant' })
  await tabTo(page, grade)
  await page.keyboard.press('ArrowRight')
  await expect(inspector.getByRole('radio', { name: 'perfect' })).toBeChecked()
  await expect(first.getByRole('radio', { name: 'perfect' })).toBeChecked()
  // Escape closes the inspector; focus goes back to the list, on the same hit.
  await page.keyboard.press('Escape')
  await expect(inspector).toBeHidden()
  await expect(hits).toBeFocused()
  await expectFocusVisible(page, 'back on the list')

  // The judgment is in the set, once, with its last grade.
  const set = await invoke<GoldenSet>(page, 'eval:set:get', { id: 'demo' })
  expect(
    set.queries.find((q) => q.query === 'vpn troubleshooting guide')?.judgments.map((j) => j.grade),
  ).toEqual([3])
})

test('support checks a link for a user with the keyboard', async ({ page, launch }) => {
  const { host } = await launch(demoRegistry(demo()), { env: demo().env })
  await page.goto(host.url)
  await saveDemoUsers(page)
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible()
  await page.keyboard.press('ControlOrMeta+3')
  const access = main(page, 'Access')
  await expect(access.getByRole('heading', { name: 'Access', level: 1 })).toBeFocused()
  const form = access.getByRole('form', { name: 'Check access' })

  await tabTo(page, form.getByRole('textbox', { name: 'Link' }))
  await page.keyboard.type(`${demo().urls.docHost}/docs/hb-pto-policy`)
  await tabTo(page, form.getByRole('combobox', { name: 'Server' }))
  await page.keyboard.type('knowledgeSearch')
  await expect(form.getByRole('combobox', { name: 'Server' })).toHaveValue('knowledgeSearch')
  await tabTo(page, form.getByRole('textbox', { name: 'Segment id' }))
  await page.keyboard.type('hb-pto-policy#0')
  const checkAs = form.getByRole('combobox', { name: /^Check as/ })
  await tabTo(page, checkAs)
  await page.keyboard.type('Dan')
  await expect(checkAs).toHaveValue('dan')
  await page.keyboard.press('Enter')

  const verdict = access.getByRole('region', { name: 'Verdict' })
  await expect(verdict).toContainText('dan@contractor.example')
  await tabTo(page, verdict.getByRole('button', { name: 'Check again' }))
  await page.keyboard.press('Enter')
  await expect(access.getByRole('table', { name: 'Recent checks' }).getByRole('row')).toHaveCount(3)
})

test('focus comes back to the control that opened a dialog or popover', async ({
  page,
  launch,
}) => {
  const { host } = await launch(demoRegistry(demo()), { env: demo().env })
  await page.goto(host.url)
  const servers = main(page, 'Servers')
  const card = servers.getByRole('region', { name: 'companyDocs', exact: true })
  await expect(card).toContainText('ready')

  const dialogs: [string, Locator, string][] = [
    ['profiles', page.getByRole('button', { name: 'Manage profiles' }), 'Acting-user profiles'],
    ['tools', card.getByRole('button', { name: /tools of companyDocs/ }), 'Tools of companyDocs'],
    ['the log', card.getByRole('button', { name: 'Log of companyDocs' }), 'Log of companyDocs'],
    ['Doctor', card.getByRole('button', { name: 'Doctor companyDocs' }), 'Doctor: companyDocs'],
  ]
  for (const [what, opener, name] of dialogs) {
    await opener.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name })
    await expect(dialog, what).toBeVisible()
    await expect.poll(() => holdsFocus(dialog), `focus moves into ${what}`).toBe(true)
    await expectFocusVisible(page, `in ${what}`)
    await page.keyboard.press('Escape')
    await expect(dialog, what).toBeHidden()
    await expect(opener, `focus back on what opened ${what}`).toBeFocused()
    await expectFocusVisible(page, `after ${what}`)
  }

  // A popover of text only keeps focus on its button; Escape closes it.
  const registry = page.getByRole('button', { name: /^Registry: / })
  await registry.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog', { name: 'Registry source' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog', { name: 'Registry source' })).toBeHidden()
  await expect(registry).toBeFocused()

  // A popover with controls: Tab goes from its button into it; Escape brings focus back.
  await page.keyboard.press('ControlOrMeta+2')
  const sources = page.getByRole('button', { name: /^Sources: / })
  await tabTo(page, sources)
  await page.keyboard.press('Enter')
  const picker = page.getByRole('dialog', { name: 'Sources of this search' })
  await expect(picker).toBeVisible()
  await page.keyboard.press('Tab')
  await expect.poll(() => holdsFocus(picker), 'Tab enters the sources popover').toBe(true)
  await expectFocusVisible(page, 'in the sources popover')
  await page.keyboard.press('Escape')
  await expect(picker).toBeHidden()
  await expect(sources).toBeFocused()
})

const holdsFocus = (container: Locator): Promise<boolean> =>
  container.evaluate((element) => element.contains(document.activeElement))

test('every Tab stop of every panel shows that it has focus', async ({ page, launch }) => {
  test.setTimeout(240_000)
  const { host } = await launch(demoRegistry(demo()), {
    env: { ...demo().env, RAG_CONSOLE_HOME: dataDirWithDemoSet() },
  })
  await page.goto(host.url)
  await actAsCarol(page)
  await page.getByRole('button', { name: 'Dismiss notification' }).click()
  await page.keyboard.press('ControlOrMeta+2')
  await page.getByRole('searchbox', { name: 'Query' }).fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(
    page.getByRole('listbox', { name: 'Merged hits' }).getByRole('option').first(),
  ).toBeVisible()
  await page.keyboard.press('ArrowDown')

  for (const [index, panel] of PANELS.entries()) {
    await page.keyboard.press(`ControlOrMeta+${index + 1}`)
    const panelMain = main(page, panel)
    await expect(panelMain.getByRole('heading', { name: panel, level: 1 })).toBeFocused()
    let stops = 0
    // Through the panel to the first stop past it (the status bar or back to the top bar).
    while (await panelMain.evaluate((element) => element.contains(document.activeElement))) {
      await page.keyboard.press('Tab')
      if (!(await panelMain.evaluate((element) => element.contains(document.activeElement)))) {
        break
      }
      await expectFocusVisible(page, `(${panel}, Tab stop ${++stops})`)
      expect(stops, `${panel} has an end`).toBeLessThan(250)
    }
    expect(stops, `${panel} has controls to reach`).toBeGreaterThan(0)
  }
})
