import { expect, LATENCY, screenshots, test } from './console'
import { demoRegistry, openSearch, useDemoServers } from './demo'

const demo = useDemoServers()

test('answers of every demo server side by side, citations linked to hits and checked together', async ({
  page,
  launch,
}) => {
  const { host } = await launch(demoRegistry(demo()), { env: demo().env })
  await openSearch(page, host.url, true)
  await expect(page.getByRole('button', { name: /^Sources: 5 servers/ })).toBeVisible()
  await page.getByLabel('Query').fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(
    page.getByRole('listbox', { name: 'Merged hits' }).getByRole('option').first(),
  ).toBeVisible()

  await page.getByRole('tab', { name: 'Answers' }).click()
  await page.getByRole('button', { name: 'Compare answers' }).click()
  const answer = (server: string) => page.getByRole('article', { name: `Answer from ${server}` })
  for (const server of ['knowledgeSearch', 'engineeringWiki', 'productCatalog', 'documentVault']) {
    await expect(answer(server)).toBeVisible()
  }
  // rag-tools-v1 has its own synthesis tool; rag-search does not, so the console answers.
  await expect(answer('engineeringWiki')).toContainText('server')
  await expect(answer('knowledgeSearch')).toContainText('client')
  // The console's own answer has no confidence to claim: it says how many query words it found.
  await expect(answer('knowledgeSearch')).toContainText(/\d+ of \d+ query words? found/)
  await expect(answer('knowledgeSearch')).toContainText(LATENCY)
  // RAGbox keeps its Silence Protocol: below its confidence floor it says why it will not answer.
  await expect(answer('documentVault').getByRole('status')).toContainText('Silent')
  await screenshots(page, 'answers-compare')

  // A chip opens the cited hit in the inspector.
  await answer('knowledgeSearch')
    .getByRole('button', { name: /^Citation 1:/ })
    .click()
  const inspector = page.getByRole('complementary', { name: 'Hit inspector' })
  await expect(inspector).toBeVisible()
  await expect(inspector).toContainText('knowledgeSearch')

  // The server's HTML report shows only in a sandboxed frame.
  const wiki = answer('engineeringWiki')
  await wiki.getByRole('button', { name: 'Preview (sandboxed)' }).first().click()
  await expect(wiki.locator('iframe')).toHaveAttribute('sandbox', '')
  await screenshots(page, 'answers-inspector-artifact')

  await page.getByRole('button', { name: 'Check all citations' }).click()
  await expect(page.getByRole('main', { name: 'Access' })).toBeVisible()

  // Back on Search, the answers are still there.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Search' })
    .click()
  await expect(answer('knowledgeSearch')).toBeVisible()
})
