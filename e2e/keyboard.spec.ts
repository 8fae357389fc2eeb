import { expect, httpServer, screenshots, test } from './console'

test('every control of the shell is reachable with Tab and named', async ({ page, launch }) => {
  const { host } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  await expect(page.getByRole('combobox', { name: 'View as' })).toHaveValue('admin')
  const names: string[] = []
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab')
    const focused = page.locator(':focus')
    // Past the last control focus leaves the page.
    if ((await focused.count()) === 0) break
    await expect(focused, `focus stop ${i + 1} has an accessible name`).toHaveAccessibleName(/\S/)
    names.push(await focused.ariaSnapshot())
  }
  expect(names).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/button \\?"Registry: /),
      expect.stringMatching(/^- combobox "View as"/),
      '- button "Manage profiles"',
      expect.stringMatching(/^- button "Servers/),
      expect.stringMatching(/^- button "Audit/),
    ]),
  )
})

test('Ctrl+1…6 open the panels, and the hints say so', async ({ page, launch }) => {
  const { host } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('button', { name: 'Config' })).toHaveAttribute(
    'aria-keyshortcuts',
    'Control+5',
  )
  await page.keyboard.press('ControlOrMeta+5')
  await expect(page.getByRole('main', { name: 'Config' })).toBeVisible()
  await page.keyboard.press('ControlOrMeta+4')
  await expect(page.getByRole('main', { name: 'Health' })).toBeVisible()
  await expect(
    page.getByRole('main', { name: 'Health' }).getByRole('heading', { name: 'Health', level: 1 }),
  ).toBeVisible()
  await screenshots(page, 'shell-pending-panel')
})

test('Escape closes the registry source popover and dialogs', async ({ page, launch }) => {
  const { host } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  await page.getByRole('button', { name: /^Registry: / }).click()
  const popover = page.getByRole('dialog', { name: 'Registry source' })
  await expect(popover).toContainText('Registry file')
  await page.keyboard.press('Escape')
  await expect(popover).toBeHidden()

  await page.getByRole('button', { name: 'Manage profiles' }).click()
  const dialog = page.getByRole('dialog', { name: 'Acting-user profiles' })
  await expect(dialog.getByLabel('Name')).toBeFocused()
  // Focus stays inside the dialog.
  for (let i = 0; i < 15; i++) await page.keyboard.press('Tab')
  expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('button', { name: 'Manage profiles' })).toBeFocused()
})

test('the demo registry says where a real one goes', async ({ page, launchEmbedded }) => {
  const host = await launchEmbedded()
  await page.goto(host.url)
  await page.getByRole('button', { name: /^Registry: demo registry/ }).click()
  const popover = page.getByRole('dialog', { name: 'Registry source' })
  await expect(popover).toContainText(`${host.dataDir}/config/overrides/rag-mcp.json`)
  await expect(popover).toContainText('--config FILE')
  await screenshots(page, 'shell-demo-registry')
})
