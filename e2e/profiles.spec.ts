import { userInfo } from 'node:os'
import { expect, screenshots, test } from './console'
import { httpServer } from './console'

test('a new profile is created, switched to, announced, and still active after a reload', async ({
  page,
  launch,
}) => {
  const { host } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  const viewAs = page.getByRole('combobox', { name: 'View as' })
  await expect(viewAs).toHaveValue('admin')

  await page.getByRole('button', { name: 'Manage profiles' }).click()
  const dialog = page.getByRole('dialog', { name: 'Acting-user profiles' })
  await dialog.getByRole('button', { name: 'New profile' }).click()
  await dialog.getByLabel('Name').fill('Support EU')
  await dialog.getByLabel('User id').fill('sam@example.com')
  await dialog.getByLabel('Session tags').fill('eu, beta')
  await dialog.getByLabel('Groups').fill('support')
  await dialog.getByRole('button', { name: 'Create profile' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Saved profile Support EU.' }),
  ).toBeVisible()
  await expect(dialog.getByRole('button', { name: /^Support EU/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await screenshots(page, 'profiles-dialog')

  await dialog.getByRole('button', { name: 'View as this profile' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Now viewing as Support EU (sam@example.com).' }),
  ).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(viewAs).toHaveValue('support-eu')
  await expect(page.getByRole('banner')).toContainText(
    'sam@example.com · tags: eu, beta · groups: support',
  )
  await screenshots(page, 'profiles-switched')

  await page.reload()
  await expect(viewAs).toHaveValue('support-eu')
  await expect(page.getByRole('banner')).toContainText('sam@example.com')

  // The select switches too, and says so.
  // The default profile is named for what it is: the OS user, every server listed.
  const osUser = `${userInfo().username} (OS user, every server listed)`
  await viewAs.selectOption({ label: osUser })
  await expect(
    page.getByRole('status').filter({ hasText: `Now viewing as ${osUser}` }),
  ).toBeVisible()
})

test('a profile form names what is wrong and a profile can be deleted', async ({
  page,
  launch,
}) => {
  const { host } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  await page.getByRole('button', { name: 'Manage profiles' }).click()
  const dialog = page.getByRole('dialog', { name: 'Acting-user profiles' })
  await dialog.getByRole('button', { name: 'New profile' }).click()
  await dialog.getByLabel('Name').fill('Temp')
  await dialog.getByRole('button', { name: 'Create profile' }).click()
  await expect(dialog.getByLabel('User id')).toHaveAttribute('aria-invalid', 'true')
  await expect(dialog).toContainText('enter the user id servers receive')

  await dialog.getByLabel('User id').fill('temp')
  await dialog.getByRole('button', { name: 'Create profile' }).click()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete profile Temp?' })
  await confirm.getByRole('button', { name: 'Delete profile' }).click()
  await expect(confirm).toBeHidden()
  await expect(dialog.getByRole('button', { name: /^Temp/ })).toHaveCount(0)
  // The last profile cannot go.
  await dialog
    .getByRole('button', { name: new RegExp(`^${userInfo().username} \\(OS user`) })
    .click()
  await expect(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled()
})
