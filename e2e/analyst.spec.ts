import type { Page } from '@playwright/test'
import { expect, invoke, screenshots, test, type Launch } from './console'
import { DEMO_SERVER_IDS, demoRegistry, openSearch, useDemoServers } from './demo'

/**
 * An analyst's day on the demo servers at a laptop's 1440 px: what Search and Answers say must
 * be true (a poisoned document stays flagged when merged, a new fusion re-sorts, every provider
 * is in view, a client answer claims no confidence).
 */

const demo = useDemoServers()

test.use({ viewport: { width: 1440, height: 900 } })

/** The part of `search:run`'s result this spec reads. */
interface MergedList {
  hits: { title: string; snippet: string; server: string }[]
}

const merged = (page: Page) => page.getByRole('listbox', { name: 'Merged hits' })
const inspector = (page: Page) => page.getByRole('complementary', { name: 'Hit inspector' })

/**
 * A console on the demo servers where Carol searches all of them: by default "printer" with the
 * phrases "vendor notes" and "toner".
 */
async function searchPrinter(
  page: Page,
  launch: Launch,
  query = 'printer',
  phrases = ['vendor notes', 'toner'],
): Promise<void> {
  const { host } = await launch(demoRegistry(demo()), { env: demo().env })
  await openSearch(page, host.url, true)
  await expect(page.getByRole('button', { name: /^Sources: 5 servers/ })).toBeVisible()
  await page.getByLabel('Query').fill(query)
  for (const phrase of phrases) {
    await page.getByRole('button', { name: 'Add phrase' }).click()
    await page.keyboard.type(phrase)
  }
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(page.getByRole('status').filter({ hasText: /merged hits? in/ })).toBeVisible()
}

test('a poisoned document stays flagged when merged, and the inspector names its flagged copies', async ({
  page,
  launch,
}) => {
  await searchPrinter(page, launch)

  const first = merged(page).getByRole('option').first()
  await expect(first).toContainText('Printer Driver Notes (from vendor)')
  await expect(first).toContainText('suspicious')
  await first.click()

  const note = inspector(page).getByRole('note', { name: 'Possible prompt injection' })
  await expect(note).toContainText(/\d+ of the \d+ copies of this document read like instructions/)
  const copies = note.getByRole('list', { name: 'Flagged copies' })
  await expect(copies).toContainText('knowledgeSearch · it-printer-vendor-notes#1')
  await expect(copies).toContainText('engineeringWiki · it-kb · it-printer-vendor-notes#1')
  const found = inspector(page).getByRole('region', { name: 'Found in' })
  await expect(found.getByRole('listitem').filter({ hasText: 'suspicious' })).not.toHaveCount(0)
  await screenshots(page, 'analyst-printer-flagged')
})

test('changing Fusion re-sorts the merged list at once, as the search would', async ({
  page,
  launch,
}) => {
  await searchPrinter(page, launch)
  // What main itself merges for each fusion; the two orders differ on these servers.
  const top = async (fusion: string): Promise<string[][]> => {
    const result = await invoke<MergedList>(page, 'search:run', {
      searchId: `by-${fusion}`,
      query: 'printer',
      phrases: ['vendor notes', 'toner'],
      topK: 10,
      fusion,
    })
    return result.hits.slice(0, 4).map((hit) => [`${hit.title}${hit.snippet}`, hit.server])
  }
  const [byRank, byScore] = [await top('rrf'), await top('score')]
  expect(byScore).not.toEqual(byRank)
  const shown = (index: number) => merged(page).getByRole('option').nth(index)
  const expectShown = async (hits: string[][]): Promise<void> => {
    for (const [index, texts] of hits.entries()) {
      for (const text of texts) await expect(shown(index)).toContainText(text)
    }
  }
  await expectShown(byRank)
  await page.getByLabel('Fusion').selectOption({ label: 'Best raw score' })
  await expectShown(byScore)
})

test('By provider shows every provider at 1440 px; merged rows have column headers and a snippet', async ({
  page,
  launch,
}) => {
  await searchPrinter(page, launch)

  const view = page.getByRole('tabpanel', { name: /^Merged/ })
  for (const column of ['Title', 'Source · server', 'Fused', 'Flags']) {
    await expect(view.getByText(column, { exact: true })).toBeVisible()
  }
  // The merged list ranks by the fused score: its Score column shows that, as the inspector does.
  await expect(view.getByText('Fused', { exact: true })).toHaveAttribute(
    'title',
    /reciprocal rank fusion/i,
  )
  for (const index of [0, 1, 2]) {
    const row = merged(page).getByRole('option').nth(index)
    await row.click()
    const fused = inspector(page)
      .getByRole('definition')
      .filter({ hasText: /\(rank \d+\)$/ })
    const value = /^([\d.]+) \(rank/.exec((await fused.textContent()) ?? '')?.[1]
    expect(value).toBeDefined()
    await expect(row).toContainText(value!)
  }
  await page.keyboard.press('Escape')
  await expect(inspector(page)).toBeHidden()
  await expect(merged(page).getByRole('option').first()).toContainText(
    'Printer hardware faults are handled by the vendor',
  )
  await screenshots(page, 'analyst-merged-1440')

  await page.getByRole('tab', { name: /^By provider/ }).click()
  for (const server of DEMO_SERVER_IDS) {
    await expect(page.getByRole('region', { name: `Hits from ${server}` })).toBeInViewport({
      ratio: 0.95,
    })
  }
  await screenshots(page, 'analyst-providers-1440')
})

test('Answers flag a server answer that talks to a model; a client answer claims no confidence', async ({
  page,
  launch,
}) => {
  await searchPrinter(page, launch, 'printer driver update', [])
  await page.getByRole('tab', { name: 'Answers' }).click()
  await page.getByRole('button', { name: 'Compare answers' }).click()

  const answer = (server: string) => page.getByRole('article', { name: `Answer from ${server}` })
  const wiki = answer('engineeringWiki')
  await expect(wiki).toContainText('ignore previous instructions')
  await expect(wiki).toContainText('suspicious')
  await expect(wiki.getByRole('note')).toContainText('possible prompt injection')

  const client = answer('knowledgeSearch')
  await expect(client).toContainText('client')
  await expect(client).toContainText(/\d+ of \d+ query words? found/)
  await expect(client).not.toContainText('confidence')
  await screenshots(page, 'analyst-answers-1440')
})
