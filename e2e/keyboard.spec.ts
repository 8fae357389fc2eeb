import { expect, httpServer, PANELS, screenshots, test } from './console'
import { openSearch, slowServer } from './demo'

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

test('Ctrl+1…8 open the eight panels, and the hints say so', async ({ page, launch }) => {
  const { host } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('button')).toHaveCount(PANELS.length)
  // Backwards, so each shortcut has to change the panel shown.
  for (const [index, name] of [...PANELS.entries()].reverse()) {
    await expect(nav.getByRole('button', { name })).toHaveAttribute(
      'aria-keyshortcuts',
      `Control+${index + 1}`,
    )
    await page.keyboard.press(`ControlOrMeta+${index + 1}`)
    await expect(
      page.getByRole('main', { name }).getByRole('heading', { name, level: 1 }),
      `Ctrl+${index + 1} opens ${name}`,
    ).toBeVisible()
    if (name === 'Health') await screenshots(page, 'shell-pending-panel')
  }
})

test('every Ctrl+N shortcut moves focus into its panel, ready to act', async ({ page, launch }) => {
  const { host } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible()
  for (const [index, name] of PANELS.entries()) {
    await page.keyboard.press(`ControlOrMeta+${index + 1}`)
    const main = page.getByRole('main', { name })
    await expect(main.getByRole('heading', { name, level: 1 })).toBeFocused()
    // The next Tab lands on the panel's first control, not back in the navigation.
    await page.keyboard.press('Tab')
    expect(
      await main.evaluate((el) => el.contains(document.activeElement)),
      `Tab after Ctrl+${index + 1} stays in ${name}`,
    ).toBe(true)
  }
  // The shortcut of the panel already shown brings focus back into it too.
  await page.getByRole('combobox', { name: 'View as' }).focus()
  await page.keyboard.press('ControlOrMeta+6')
  await expect(page.getByRole('heading', { name: 'Audit', level: 1 })).toBeFocused()
})

test('Escape closes the hit inspector from the hit list as from inside it', async ({
  page,
  launch,
}) => {
  const { host } = await launch({ fixture: slowServer('fixture', 0) })
  await openSearch(page, host.url)
  await page.getByLabel('Query').fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')
  const list = page.getByRole('listbox', { name: 'Merged hits' })
  const inspector = page.getByRole('complementary', { name: 'Hit inspector' })
  await list.getByRole('option').first().click()
  await expect(inspector).toBeVisible()
  await expect(list).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(list.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Escape')
  await expect(inspector).toBeHidden()
  await expect(list).toBeFocused()

  // From inside the inspector, focus goes back to the list, so arrows go on from there.
  await page.keyboard.press('ArrowDown')
  await inspector.getByRole('button', { name: 'Copy as JSON' }).focus()
  await page.keyboard.press('Escape')
  await expect(inspector).toBeHidden()
  await expect(list).toBeFocused()
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
