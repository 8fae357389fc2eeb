import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, invoke, screenshots, test, type Entry } from './console'
import { root } from './host'

/**
 * Forms servers send while they work (`elicitation/create`), answered in the page: a stdio
 * server whose `ask` tool asks for a named form and returns what came back.
 */
const asker: Entry = {
  transport: 'stdio',
  command: process.execPath,
  args: [join(root, 'src/test/fixtures/pool/elicit-stdio-server.mjs')],
  description: 'Asks for a form on every call',
}

interface CallResult {
  result?: { content: { type: string; text: string }[] }
  error?: { message: string }
}

/** Starts a workbench call of `ask` from the page; resolves with what the form came back with. */
const ask = (page: Page, form: string, waitMs?: number) =>
  invoke<CallResult>(page, 'workbench:call', {
    server: 'asker',
    tool: 'ask',
    arguments: { form, ...(waitMs ? { waitMs } : {}) },
    timeoutMs: 60_000,
  })

const textOf = (call: CallResult): unknown => JSON.parse(call.result!.content[0]!.text)

test('a server’s form opens as a dialog, is checked as it is filled in, and the answer reaches it', async ({
  page,
  launch,
}) => {
  const { host } = await launch({ asker })
  await page.goto(host.url)
  await expect(page.getByRole('region', { name: 'asker' }).getByText('ready')).toBeVisible()

  const answered = ask(page, 'required')
  const dialog = page.getByRole('dialog', { name: 'asker asks' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByText('Please fill in the required form')).toBeVisible()
  await expect(dialog.getByRole('textbox', { name: 'team (optional)' })).toHaveValue('search')
  // Required and empty: said so, nothing is sent.
  await dialog.getByRole('button', { name: 'Send' }).click()
  await expect(dialog.getByText('Required', { exact: true })).toBeVisible()
  await screenshots(page, 'elicitation-form')
  await dialog.getByRole('textbox', { name: 'name' }).fill('Ada Lovelace')
  await dialog.getByRole('button', { name: 'Send' }).click()
  await expect(dialog).toBeHidden()
  expect(textOf(await answered)).toEqual({
    action: 'accept',
    content: { name: 'Ada Lovelace', team: 'search' },
  })

  const declined = ask(page, 'defaults')
  await expect(dialog.getByRole('textbox', { name: 'age (optional)' })).toHaveValue('30')
  await dialog.getByRole('button', { name: 'Decline' }).click()
  expect(textOf(await declined)).toEqual({ action: 'decline' })
})

test('a form the server stops waiting for closes by itself', async ({ page, launch }) => {
  const { host } = await launch({ asker })
  await page.goto(host.url)
  await expect(page.getByRole('region', { name: 'asker' }).getByText('ready')).toBeVisible()
  const call = ask(page, 'required', 1_500)
  const dialog = page.getByRole('dialog', { name: 'asker asks' })
  await expect(dialog).toBeVisible()
  // The server waits 1.5 s for the form, then cancels it: the dialog goes.
  await expect(dialog).toBeHidden()
  expect(textOf(await call)).toMatchObject({
    error: { message: expect.stringMatching(/timed out/i) },
  })
})
