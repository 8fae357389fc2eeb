import type { Locator, Page } from '@playwright/test'
import { RAW_SEARCHES } from '#core/services/raw-payloads'
import type { ServerSearchResult } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'
import { startChild } from '#test/support/process/start-child'
import { expect, invoke, recordFrames, screenshots, test, type Launch } from './console'
import {
  DEMO_SERVER_IDS,
  RAG_FIXTURE,
  becomeCarol,
  brokenServer,
  demoRegistry,
  openSearch,
  slowServer,
  useDemoServers,
} from './demo'

const demo = useDemoServers()

const waterfall = (page: Page) => page.getByRole('table', { name: 'Latency by server' })

/** Searches every demo server for "vpn setup" as Carol; resolves when each has answered. */
async function searchEveryDemoServer(page: Page, launch: Launch): Promise<void> {
  const { host } = await launch(demoRegistry(demo()), { env: demo().env })
  await openSearch(page, host.url, true)
  await page.getByLabel('Query').fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')
  for (const server of DEMO_SERVER_IDS) {
    await expect(waterfall(page).getByRole('row', { name: server })).toContainText(/ok|\d+ ms/)
  }
}

/** Searches the server with broken replies for "vpn"; resolves with the merged list. */
async function searchBroken(page: Page, launch: Launch): Promise<Locator> {
  const { host } = await launch({ broken: brokenServer() })
  await openSearch(page, host.url)
  await page.getByLabel('Query').fill('vpn')
  await page.keyboard.press('ControlOrMeta+Enter')
  return page.getByRole('listbox', { name: 'Merged hits' })
}

test('a search across every demo server shows each provider, the waterfall and the merged list', async ({
  page,
  launch,
}) => {
  const { host } = await launch(demoRegistry(demo()), { env: demo().env })
  await openSearch(page, host.url, true)
  await expect(page.getByRole('button', { name: /^Sources: 5 servers/ })).toBeVisible()

  await page.getByLabel('Query').fill('vpn setup')
  await page.getByRole('button', { name: 'Add phrase' }).click()
  await expect(page.getByRole('textbox', { name: 'Phrase 2' })).toBeFocused()
  await page.keyboard.type('remote access')
  await page.keyboard.press('ControlOrMeta+Enter')

  for (const server of DEMO_SERVER_IDS) {
    await expect(waterfall(page).getByRole('row', { name: server })).toContainText(/ok|\d+ ms/)
  }
  const merged = page.getByRole('listbox', { name: 'Merged hits' })
  await expect(merged.getByRole('option').first()).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: /merged hits? in/ })).toBeVisible()
  await screenshots(page, 'search-merged')

  await page.getByRole('tab', { name: /^By provider/ }).click()
  for (const server of DEMO_SERVER_IDS) {
    await expect(page.getByRole('region', { name: `Hits from ${server}` })).toBeVisible()
  }
  // rag-search and rag-tools-v1 link the same internal documents: overlap shows.
  await expect(page.getByRole('region', { name: 'Hits from knowledgeSearch' })).toContainText(
    /[1-9]\d* shared/,
  )
  await screenshots(page, 'search-providers')

  // Adjusting the sources opens Servers; coming back, the search is still there.
  await page.getByRole('button', { name: /^Sources: 5 servers/ }).click()
  await page.getByRole('button', { name: 'Adjust the sources of knowledgeSearch' }).click()
  await expect(page.getByRole('main', { name: 'Servers' })).toBeVisible()
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Search' })
    .click()
  await expect(page.getByLabel('Query')).toHaveValue('vpn setup')
  await expect(page.getByRole('region', { name: 'Hits from knowledgeSearch' })).toBeVisible()
})

test('a provider column of 100 hits mounts only the rows in view, yet the keyboard reaches the last', async ({
  page,
  launch,
}) => {
  const ids = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6']
  const { host } = await launch(Object.fromEntries(ids.map((id) => [id, slowServer(id, 0, 100)])))
  await openSearch(page, host.url)
  await expect(page.getByRole('button', { name: /^Sources: 6 servers/ })).toBeVisible()
  await page.getByLabel('Query').fill('vpn')
  await page.getByLabel('Top k').selectOption('100')
  await page.getByRole('button', { name: 'Run' }).click()
  await expect(page.getByRole('status').filter({ hasText: /merged hits? in/ })).toBeVisible()
  await page.getByRole('tab', { name: /^By provider/ }).click()

  const column = page.getByRole('region', { name: 'Hits from p1' })
  const list = column.getByRole('listbox', { name: 'p1 hits' })
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-setsize', '100')
  // Four or five rows show; a column mounts those and a few either side, not a screenful more.
  expect(await list.getByRole('option').count()).toBeLessThanOrEqual(10)
  await expect(column).toContainText('100 only')
  await screenshots(page, 'search-providers-many')

  await list.getByRole('option').first().click()
  await expect(list.getByRole('option', { selected: true })).toHaveAttribute('aria-posinset', '1')
  await list.press('End')
  const last = list.getByRole('option', { selected: true })
  await expect(last).toHaveAttribute('aria-posinset', '100')
  await expect(last).toBeInViewport()
  await list.press('ArrowUp')
  await expect(list.getByRole('option', { selected: true })).toHaveAttribute('aria-posinset', '99')
  // Back to the top: the column scrolls there again.
  await list.press('Home')
  const first = list.getByRole('option', { selected: true })
  await expect(first).toHaveAttribute('aria-posinset', '1')
  await expect(first).toBeInViewport()
  expect(await list.getByRole('option').count()).toBeLessThanOrEqual(10)
})

/** 40 servers on one fixture (every hit returned by all 40), searched; ends the fixture. */
async function searchFortyServers(page: Page, launch: Launch): Promise<() => Promise<void>> {
  const fixture = await startChild([RAG_FIXTURE, '--http', '--hits', '2'], (lines) =>
    lines.map((line) => /listening on (\S+)/.exec(line)?.[1]).find(Boolean),
  )
  try {
    const ids = Array.from({ length: 40 }, (_, i) => `s${String(i + 1).padStart(2, '0')}`)
    const entry = { url: fixture.ready, dialect: 'rag-tools-v1', timeoutMs: 60_000 }
    const { host } = await launch(Object.fromEntries(ids.map((id) => [id, entry])))
    await openSearch(page, host.url)
    await expect(page.getByRole('button', { name: /^Sources: 40 servers/ })).toBeVisible()
    await page.getByLabel('Query').fill('vpn')
    await page.getByRole('button', { name: 'Run' }).click()
    await expect(page.getByRole('status').filter({ hasText: /merged hits? in/ })).toBeVisible()
    return fixture.stop
  } catch (error) {
    await fixture.stop()
    throw error
  }
}

test('the latency waterfall of 40 servers mounts only the rows in view, and scrolls to the last', async ({
  page,
  launch,
}) => {
  const stop = await searchFortyServers(page, launch)
  try {
    const table = waterfall(page)
    await expect(table).toHaveAttribute('aria-rowcount', '41')
    await expect(table.getByRole('row', { name: 's01' })).toContainText('ok')
    // Six rows show in its box: the rest are not in the page until they scroll into view.
    expect(await table.getByRole('row').count()).toBeLessThan(25)
    const box = page.getByRole('group', { name: 'Latency by server, scrollable' })
    await box.focus()
    const last = table.getByRole('row', { name: 's40' })
    // End scrolls to the end the virtualizer knows; rows it measures on the way may move that
    // end, and End again reaches it.
    await expect(async () => {
      await box.press('End')
      await expect(last).toBeInViewport({ timeout: 2_000 })
    }).toPass()
    // Its latency: "840 ms", or "2.39 s" on a busy machine.
    await expect(last).toContainText(/\d+(\.\d+)? m?s/)
    await expect(last).toHaveAttribute('aria-rowindex', '41')
    expect(await table.getByRole('row').count()).toBeLessThan(25)
  } finally {
    await stop()
  }
})

test('an overlap marker names the first few other providers and counts the rest', async ({
  page,
  launch,
}) => {
  const stop = await searchFortyServers(page, launch)
  try {
    await page.getByRole('tab', { name: /^By provider/ }).click()
    const column = page.getByRole('region', { name: 'Hits from s01' })
    const marker = column.getByRole('option').first().getByText('×40')
    await expect(marker).toHaveAttribute(
      'title',
      'Also returned by: s02, s03, s04, s05, s06, s07, s08, s09 and 31 more',
    )
  } finally {
    await stop()
  }
})

test('cancel stops a slow server and keeps what already arrived', async ({ page, launch }) => {
  const { host } = await launch({ fast: slowServer('fast', 0), slow: slowServer('slow', 30_000) })
  await openSearch(page, host.url)
  await expect(page.getByRole('button', { name: /^Sources: 2 servers/ })).toBeVisible()
  await page.getByLabel('Query').fill('vpn')
  await page.getByRole('button', { name: 'Run' }).click()

  await expect(waterfall(page).getByRole('row', { name: 'fast' })).toContainText('ok')
  await expect(waterfall(page).getByRole('row', { name: 'slow' })).toContainText('waiting')
  await page.getByRole('button', { name: 'Cancel' }).click()

  await expect(waterfall(page).getByRole('row', { name: 'slow' })).toContainText('cancelled')
  await expect(page.getByRole('status').filter({ hasText: 'merged hit' })).toContainText(
    'cancelled',
  )
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeHidden()
  await screenshots(page, 'search-cancelled')
  await expect(page.getByRole('listbox', { name: 'Merged hits' }).getByRole('option')).toHaveCount(
    5,
  )
})

test('Run pressed while the sources are still being found waits for them, then shows every server', async ({
  page,
  launch,
}) => {
  const { host } = await launch({ fast: slowServer('fast', 0), slow: slowServer('slow', 30_000) })
  // The sources reach the page 2 s late, as on a loaded machine.
  await page.routeWebSocket(/\/ipc\?/, (ws) => {
    const server = ws.connectToServer()
    ws.onMessage((message) => {
      if (String(message).includes('"discovery:run"')) setTimeout(() => server.send(message), 2000)
      else server.send(message)
    })
  })
  await openSearch(page, host.url)
  await page.getByLabel('Query').fill('vpn')
  await page.keyboard.press('ControlOrMeta+Enter')
  // Held, not lost: it can be cancelled, and runs once the sources are known.
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible()
  await screenshots(page, 'search-held')
  await expect(page.getByRole('button', { name: /^Sources: 2 servers/ })).toBeVisible()
  // The slow server is listed while it is still waiting, not only once it answers.
  await expect(waterfall(page).getByRole('row', { name: 'slow' })).toContainText('waiting', {
    timeout: 15_000,
  })
  await expect(waterfall(page).getByRole('row', { name: 'fast' })).toContainText('ok')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(waterfall(page).getByRole('row', { name: 'slow' })).toContainText('cancelled')
})

test('the inspector shows the violations and the raw JSON of a broken reply', async ({
  page,
  launch,
}) => {
  const merged = await searchBroken(page, launch)
  const long = merged.getByRole('option', { name: /A headline that goes on/ })
  await expect(long).toContainText(/violations?/)
  await expect(merged.getByRole('option', { name: /Printer vendor notes/ })).toContainText(
    'suspicious',
  )
  await long.click()

  const inspector = page.getByRole('complementary', { name: 'Hit inspector' })
  const violations = inspector.getByRole('list', { name: 'Violations' }).first()
  await expect(violations).toContainText('headline_too_long')
  await expect(violations).toContainText('segments[1].headline')
  await expect(violations).toContainText('segments[1].raw_text')
  const raw = inspector.getByLabel('Raw reply', { exact: true })
  await expect(raw).toContainText('"segment_uid": "broken-2"')
  await expect(raw).toContainText('"score": "high"')
  await screenshots(page, 'search-inspector-broken')

  // Collapsible: the raw JSON folds away.
  await inspector.getByText('Raw reply').click()
  await expect(raw).toBeHidden()

  // Arrow keys move through the list; the inspector follows.
  await merged.press('ArrowDown')
  await expect(inspector.getByRole('heading', { name: 'Printer vendor notes' })).toBeVisible()
  await expect(inspector).toContainText('possible prompt injection')

  // A very large reply is cut until asked for in full.
  await merged.press('ArrowDown')
  await expect(inspector.getByRole('heading', { name: 'Security policy, full text' })).toBeVisible()
  await expect(raw).not.toContainText('END OF POLICY')
  await inspector.getByRole('button', { name: 'Show all' }).click()
  await expect(raw).toContainText('END OF POLICY')

  // Copy as JSON puts the normalized hit on the clipboard.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await inspector.getByRole('button', { name: 'Copy as JSON' }).click()
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('as JSON')
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(JSON.parse(copied)).toMatchObject({ server: 'broken', id: 'broken-4' })
})

test('Check access on a hit opens the Access panel with that hit', async ({ page, launch }) => {
  const merged = await searchBroken(page, launch)
  await merged.getByRole('option', { name: /VPN setup for remote staff/ }).click()
  await page
    .getByRole('complementary', { name: 'Hit inspector' })
    .getByRole('button', { name: 'Check access' })
    .click()
  await expect(page.getByRole('main', { name: 'Access' })).toBeVisible()
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('button', { name: 'Access' })).toHaveAttribute('aria-current', 'page')
  // The hit arrives in the form and is checked at once.
  const form = page.getByRole('form', { name: 'Check access' })
  await expect(form.getByLabel('Server')).toHaveValue('broken')
  await expect(form.getByLabel('Segment id')).toHaveValue('broken-1')
  await expect(form.getByLabel('Link')).toHaveValue('https://docs.example/broken/vpn')
  await expect(page.getByRole('region', { name: 'Verdict' })).toContainText('broken-1')

  // Coming back, the hit is still open; the whole result set goes to Access in one go.
  await nav.getByRole('button', { name: 'Search' }).click()
  await expect(
    page.getByRole('complementary', { name: 'Hit inspector' }).getByRole('heading', { level: 2 }),
  ).toHaveText('VPN setup for remote staff')
  await page.getByRole('button', { name: 'Check all citations' }).click()
  await expect(page.getByRole('main', { name: 'Access' })).toBeVisible()
  await expect(page.getByRole('region', { name: /^Batch: / })).toBeVisible()
  await expect(page.getByRole('group', { name: 'Verdict classes' })).toBeVisible()
})

interface Frame {
  event?: { name: string; payload: { searchId: string; result: ServerSearchResult } }
  response?: { ok: boolean; value?: { searchId?: string; servers?: object[]; hits?: Hit[] } }
}

test('each hit reaches the page once, without its raw payload, and every one is listed', async ({
  page,
  launch,
}) => {
  const frames = recordFrames(page)
  // The late server's progress event is the last thing the page gets before the reply.
  const { host } = await launch({
    early: slowServer('early', 0, 40),
    late: slowServer('late', 500, 25),
  })
  await openSearch(page, host.url)
  await expect(page.getByRole('button', { name: /^Sources: 2 servers/ })).toBeVisible()
  await page.getByLabel('Query').fill('vpn')
  await page.getByLabel('Top k').selectOption('50')
  await page.getByRole('button', { name: 'Run' }).click()
  await expect(page.getByRole('status').filter({ hasText: /merged hits? in/ })).toBeVisible()
  await page.getByRole('tab', { name: /^All hits/ }).click()
  const all = page.getByRole('listbox', { name: 'All hits' })
  await expect(all.getByRole('option').first()).toHaveAttribute('aria-setsize', '65')

  const messages = frames.map((text) => JSON.parse(text) as Frame)
  const progress = messages.flatMap((m) =>
    m.event?.name === 'search:progress' ? [m.event.payload.result] : [],
  )
  expect(progress.map((p) => [p.server, p.hits.length])).toEqual([
    ['early', 40],
    ['late', 25],
  ])
  const reply = messages.find((m) => m.response?.value?.searchId)!.response!.value!
  expect(reply.servers).toHaveLength(2)
  for (const part of reply.servers!) {
    expect(part).toMatchObject({ streamed: true })
    expect(part).not.toHaveProperty('hits')
  }
  const hits = [...progress.flatMap((p) => p.hits), ...reply.hits!]
  expect(hits.filter((hit) => 'raw' in hit)).toEqual([])
})

test('the inspector fetches a hit’s raw reply, and says so once the console no longer holds it', async ({
  page,
  launch,
}) => {
  const merged = await searchBroken(page, launch)
  const inspector = page.getByRole('complementary', { name: 'Hit inspector' })
  await merged.getByRole('option', { name: /VPN setup for remote staff/ }).click()
  await expect(inspector.getByLabel('Raw reply', { exact: true })).toContainText(
    '"segment_uid": "broken-1"',
  )

  // Searches from elsewhere (another window) push this one out of what main holds.
  for (let i = 0; i < RAW_SEARCHES; i++) {
    await invoke(page, 'search:run', { searchId: `elsewhere-${i}`, query: 'printer' })
  }
  await merged.getByRole('option', { name: /Printer vendor notes/ }).click()
  const note = inspector.getByRole('region', { name: 'Raw reply' }).getByRole('note')
  await expect(note).toContainText('No longer held')
  await expect(note).toContainText('Run the search again')
  await screenshots(page, 'search-inspector-raw-evicted')

  await page.getByRole('button', { name: 'Run' }).click()
  await merged.getByRole('option', { name: /Printer vendor notes/ }).click()
  await expect(inspector.getByLabel('Raw reply', { exact: true })).toContainText('"segment_uid"')
})

test('a server the default scope leaves out is named beside it, with why and where to fix it', async ({
  page,
  launch,
}) => {
  const { host } = await launch(demoRegistry(demo()), { env: demo().env })
  // Carol's VTEX categories all start off: productCatalog has nothing selected.
  await page.goto(host.url)
  await becomeCarol(page)
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Search' })
    .click()
  await expect(page.getByRole('button', { name: /^Sources: 4 servers/ })).toBeVisible()
  const note = page.getByRole('note', { name: 'Servers not searched' })
  await expect(note).toContainText('productCatalog not searched: no source selected')
  await screenshots(page, 'search-not-searched')
  await note.getByRole('button', { name: 'Select sources of productCatalog on Servers' }).click()
  await expect(page.getByRole('main', { name: 'Servers' })).toBeVisible()
  await page
    .getByRole('region', { name: 'productCatalog', exact: true })
    .getByRole('button', { name: 'Select all sources of productCatalog' })
    .click()
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Search' })
    .click()
  await expect(page.getByRole('button', { name: /^Sources: 5 servers/ })).toBeVisible()
  await expect(note).toBeHidden()
})

test('the merged list names source and server on every row, agrees with the inspector, and keeps titles readable', async ({
  page,
  launch,
}) => {
  await searchEveryDemoServer(page, launch)
  const merged = page.getByRole('listbox', { name: 'Merged hits' })
  // Every row's "Source · Server" has both parts, a dash where the server names no source.
  const wheres = await merged.locator('.hit-row__where').allTextContents()
  expect(wheres.length).toBeGreaterThan(0)
  for (const where of wheres) expect.soft(where).toMatch(/^\S.* · \S+$/)

  const first = merged.getByRole('option').first()
  const marker = await first.getByText(/^×\d+$/).textContent()
  await first.click()
  const inspector = page.getByRole('complementary', { name: 'Hit inspector' })
  const found = inspector.getByRole('region', { name: 'Found in' }).getByRole('heading')
  await expect.soft(found).toContainText(`Found by ${marker!.slice(1)} providers`)

  // Beside the inspector in a 1280 px window, titles keep room to be read.
  await page.setViewportSize({ width: 1280, height: 800 })
  await screenshots(page, 'search-inspector-1280')
  const widths = await merged
    .locator('.hit-row__title')
    .evaluateAll((titles) => titles.map((title) => title.clientWidth))
  for (const width of widths) expect.soft(width).toBeGreaterThanOrEqual(240)
})

test('By provider gives the room to providers with hits, not to those with "No hits."', async ({
  page,
  launch,
}) => {
  await searchEveryDemoServer(page, launch)
  await page.getByRole('tab', { name: /^By provider/ }).click()
  // Three columns a row: the three with hits, then companyDocs and documentVault with none.
  const vault = page.getByRole('region', { name: 'Hits from documentVault' })
  await expect(vault).toContainText('No hits.')
  const kb = page.getByRole('region', { name: 'Hits from knowledgeSearch' })
  await screenshots(page, 'search-providers-quiet')
  const [quiet, busy] = [await vault.boundingBox(), await kb.boundingBox()]
  expect(quiet!.height).toBeLessThan(130)
  expect(busy!.height).toBeGreaterThan(2 * quiet!.height)
  await expect(kb.getByRole('option').nth(4)).toBeInViewport()
})
