import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expectColumnsFit } from './columns'
import { invoke, screenshots } from './console'
import { launchHost } from './host'
import { expect, findHit, saveDemoProfiles, test, type RagSearchDemo } from './demo-servers'

const SERVER = 'knowledgeSearch'

type Launch = Parameters<Parameters<typeof test>[2]>[0]['launch']

async function openAccess(page: Page, launch: Launch, demo: RagSearchDemo) {
  const { host } = await launch({ [SERVER]: demo.entry }, { env: demo.env })
  await page.goto(host.url)
  await saveDemoProfiles(page)
  return { form: await showAccess(page), host }
}

async function showAccess(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Access' })
    .click()
  return page.getByRole('form', { name: 'Check access' })
}

const card = (page: Page) => page.getByRole('region', { name: 'Verdict' })

/** Checks a hit (its link, server and segment id) as Alice, who is not the active profile. */
async function checkAsAlice(form: Locator, hit: { id: string; uri?: string }): Promise<void> {
  await form.getByLabel('Check as').selectOption({ label: 'Alice Lee (sales)' })
  await expect(form.getByLabel('Check as')).toHaveValue('alice')
  await form.getByLabel('Link').fill(hit.uri!)
  await form.getByLabel('Server').selectOption(SERVER)
  await form.getByLabel('Segment id').fill(hit.id)
  await form.getByLabel('Segment id').press('Enter')
}

test('an expired link: refused for the wrong user, refreshed and opening for the right one', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  const { form } = await openAccess(page, launch, demo)
  // The stale link as carol's search returned it (signed for her, expired in 2024).
  await invoke(page, 'profiles:activate', { id: 'carol' })
  const hit = await findHit(page, SERVER, 'master services agreement clauses', 'lg-msa-clauses')

  await checkAsAlice(form, hit)

  await expect(card(page)).toContainText('forbidden')
  await expect(card(page)).toContainText('alice@example.com')
  await expect(card(page)).toContainText(/Has access\s*no/)
  await expect(card(page).getByText('Refreshed URL')).toHaveCount(0)
  // Checking as Alice leaves "View as" on Carol for the rest of the console.
  expect((await invoke<{ activeId: string }>(page, 'profiles:list')).activeId).toBe('carol')
  await screenshots(page, 'access-wrong-user')

  await form.getByLabel('Check as').selectOption({ label: 'Carol Mendes (legal, admin) (View as)' })
  await expect(form.getByLabel('Check as')).toHaveValue('carol')
  await form.getByRole('button', { name: 'Check' }).click()

  // The verdict is about the link Carol clicked: expired, with a fresh one to open.
  await expect(card(page)).toContainText('link expired')
  await expect(card(page)).toContainText('carol@example.com')
  await expect(card(page)).toContainText(
    /This link expired \d+ days ago \(HTTP 403, [^)]*\); the server can issue a fresh one \(open it: HTTP 200/,
  )
  await expect(card(page).locator('dt:text-is("Link") + dd code')).toHaveText(hit.uri!)
  const fresh = card(page).locator('dt:text-is("Fresh link") + dd code')
  await expect(fresh).toHaveText(new RegExp(`^${demo.docs}/docs/lg-msa-clauses\\?u=carol`))
  expect(await fresh.textContent()).not.toBe(hit.uri)
  await expect(card(page).getByRole('button', { name: 'Open it' })).toBeVisible()
  await expect(card(page).getByRole('button', { name: 'Copy the fresh link' })).toBeVisible()
  const chain = card(page).getByRole('list', { name: 'HTTP chain', exact: true })
  await expect(chain.getByRole('listitem')).toHaveCount(1)
  await expect(chain).toContainText('403')
  await expect(card(page).getByRole('list', { name: "Fresh link's HTTP chain" })).toContainText(
    '200',
  )

  // Both checks are in the history, newest first; the older one shows again.
  const history = page.getByRole('table', { name: 'Recent checks' })
  await expect(history.getByRole('row')).toHaveCount(3)
  await expect(history.getByRole('row').nth(1)).toContainText('carol@example.com')
  await screenshots(page, 'access-right-user')
  await history.getByRole('button', { name: /as alice@example.com/ }).click()
  await expect(card(page)).toContainText('forbidden')
  // Checking that one again asks as Alice, not as the active profile.
  await card(page).getByRole('button', { name: 'Check again' }).click()
  await expect(card(page)).toContainText('fresh')
  await expect(card(page)).toContainText('alice@example.com')
  await expect(card(page)).toContainText('forbidden')
})

test('a link behind a login wall, a moved document, and the cache against "check again"', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  const { form } = await openAccess(page, launch, demo)
  const link = form.getByLabel('Link')

  await link.fill(`${demo.docs}/portal/hb-health-benefits-request`)
  await link.press('Enter')
  await expect(card(page)).toContainText('login wall')
  const chain = card(page).getByRole('list', { name: 'HTTP chain' })
  await expect(chain.getByRole('listitem')).toHaveCount(2)
  await expect(chain.getByRole('listitem').nth(0)).toContainText('302')
  await expect(chain.getByRole('listitem').nth(1)).toContainText('200')
  await expect(chain.getByRole('listitem').nth(1)).toContainText('/login')
  await screenshots(page, 'access-login-wall')

  await link.fill(`${demo.docs}/docs/en-api-versioning-checklist`)
  await link.press('Enter')
  await expect(card(page)).toContainText('not found')
  await expect(card(page)).toContainText('fresh')
  await expect(card(page)).toContainText('HTTP 404')

  // The same check again within 5 minutes comes from the cache; "check again" asks anew.
  await link.press('Enter')
  await expect(card(page).getByText('cached', { exact: true })).toBeVisible()
  await expect(card(page)).toContainText(/checked just now/)
  await card(page).getByRole('button', { name: 'Check again' }).click()
  await expect(card(page).getByText('fresh', { exact: true })).toBeVisible()
  const history = page.getByRole('table', { name: 'Recent checks' })
  await expect(history.getByRole('row')).toHaveCount(5)
  await screenshots(page, 'access-not-found')
})

test('the form says what to fill in and checks nothing until it can', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  const { form } = await openAccess(page, launch, demo)
  await form.getByRole('button', { name: 'Check' }).click()
  await expect(form).toContainText('Paste a link, or pick a server and enter a segment id.')
  await form.getByLabel('Segment id').fill('hb-pto-policy#0')
  await form.getByLabel('Segment id').press('Enter')
  await expect(form.getByLabel('Server')).toHaveAttribute('aria-invalid', 'true')
  await expect(form).toContainText('Pick the server this segment id comes from.')
  await screenshots(page, 'access-form-errors')
  await expect(page.getByRole('table', { name: 'Recent checks' })).toContainText(
    'Checks you make appear here',
  )
})

test('a pasted list is checked as a batch: a count per class, filters, and one verdict opened', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  const { host } = await openAccess(page, launch, demo)
  await invoke(page, 'profiles:activate', { id: 'carol' })
  const stale = await findHit(page, SERVER, 'master services agreement clauses', 'lg-msa-clauses')
  const links = [
    `${demo.docs}/docs/hb-pto-policy`,
    `${demo.docs}/docs/hb-remote-work-policy`,
    stale.uri!,
    `${demo.docs}/docs/en-deployments-runbook`,
    `${demo.docs}/docs/en-api-versioning-checklist`,
    `${demo.docs}/portal/hb-health-benefits-request`,
    `${demo.docs}/throttled/it-printer-setup`,
    `${demo.docs}/error/en-observability-runbook`,
    'http://127.0.0.1:9/wiki/it-email-troubleshoot',
    '\\\\fileserver\\legal\\retention.pdf',
    // The console's own address: refused by the link policy, never requested.
    `${new URL(host.url).origin}/`,
  ]
  await page.getByRole('tab', { name: /^Check all/ }).click()
  const box = page.getByLabel('Links to check, one per line')
  await box.fill(links.join('\n'))
  await box.press('ControlOrMeta+Enter')

  const batch = page.getByRole('region', { name: /^Batch: Links pasted at / })
  const verdicts = batch.getByRole('group', { name: 'Verdict classes' })
  const expected = {
    opens: 2,
    'link expired': 1,
    forbidden: 1,
    'not found': 1,
    'login wall': 1,
    'rate limited': 1,
    'server error': 1,
    unreachable: 1,
    'address refused': 1,
    'not a web link': 1,
  }
  for (const [label, count] of Object.entries(expected)) {
    await expect(verdicts.getByRole('button', { name: `${label} ${count}` })).toBeVisible()
  }
  const table = batch.getByRole('table', { name: 'Verdicts' })
  await expect(table).toHaveAttribute('aria-rowcount', '12')
  await screenshots(page, 'access-batch')

  // A class narrows the table; a second class adds to it; words narrow further.
  await verdicts.getByRole('button', { name: 'opens 2' }).click()
  await expect(table).toHaveAttribute('aria-rowcount', '3')
  await verdicts.getByRole('button', { name: 'login wall 1' }).click()
  await expect(table).toHaveAttribute('aria-rowcount', '4')
  await batch.getByLabel('Filter').fill('remote-work')
  await expect(table).toHaveAttribute('aria-rowcount', '2')
  await expect(batch.getByText('1 of 11 verdicts')).toBeVisible()
  await batch.getByRole('button', { name: 'Clear filters' }).click()
  await expect(table).toHaveAttribute('aria-rowcount', '12')

  // One verdict opens in the card, where it can be checked again.
  await table.getByRole('button', { name: `Show the verdict on ${stale.uri}` }).click()
  await expect(page.getByRole('tab', { name: 'Check', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(card(page)).toContainText('link expired')
  await expect(card(page)).toContainText(/This link expired \d+ days ago/)
})

test('support: the link Carol clicked expired; the sentence says so, and the check outlives a reload', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  await openAccess(page, launch, demo)
  await invoke(page, 'profiles:activate', { id: 'carol' })
  const query = 'master services agreement clauses'
  const hit = (await findHit(page, SERVER, query, 'lg-msa-clauses')) as {
    id: string
    uri: string
    title: string
  }
  await page.reload()

  // As support would: search as Carol, open the hit she clicked, check access.
  const nav = page.getByRole('navigation', { name: 'Main' })
  await nav.getByRole('button', { name: 'Search' }).click()
  await page.getByLabel('Query').fill(query)
  await page.keyboard.press('ControlOrMeta+Enter')
  await page
    .getByRole('listbox', { name: 'Merged hits' })
    .getByRole('option', { name: new RegExp(hit.title) })
    .first()
    .click()
  await page
    .getByRole('complementary', { name: 'Hit inspector' })
    .getByRole('button', { name: 'Check access' })
    .click()

  const form = page.getByRole('form', { name: 'Check access' })
  await expect(form.getByLabel('Link')).toHaveValue(hit.uri)
  await expect(card(page).getByText('link expired', { exact: true })).toBeVisible()
  await expect(card(page).getByRole('paragraph')).toHaveText(
    /^This link expired \d+ days ago \(HTTP 403, [^)]*\); the server can issue a fresh one \(open it: HTTP 200, [^)]*\)\.$/,
  )
  await expect(card(page)).toContainText('carol@example.com')
  await expect(card(page)).not.toContainText('opens')
  await screenshots(page, 'access-support-expired')

  // The history is kept by the console, not the page: it survives a reload.
  await page.reload()
  await nav.getByRole('button', { name: 'Access' }).click()
  const history = page.getByRole('table', { name: 'Recent checks' })
  await expect(history.getByRole('row')).toHaveCount(2)
  await expect(history.getByRole('row').nth(1)).toContainText('link expired')
  await expect(card(page)).toContainText(/This link expired \d+ days ago/)

  // Another link for the same segment is checked for what it is, not answered from the cache.
  const other = `${demo.docs}/docs/hb-pto-policy`
  await form.getByLabel('Link').fill(other)
  await form.getByLabel('Link').press('Enter')
  await expect(card(page).locator('dt:text-is("Link") + dd code')).toHaveText(other)
  await expect(card(page).getByText('fresh', { exact: true })).toBeVisible()
  await expect(card(page).getByText('opens', { exact: true })).toBeVisible()
  await expect(history.getByRole('row')).toHaveCount(3)
})

test('a citation without a link and a link that is not a web link get different verdicts', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  const { form } = await openAccess(page, launch, demo)
  const unc = '\\\\fileserver\\legal\\retention.pdf'
  await form.getByLabel('Link').fill(unc)
  await form.getByLabel('Link').press('Enter')
  await expect(card(page).getByText('not a web link', { exact: true })).toBeVisible()
  // The path reads as written, not JSON-escaped.
  await expect(card(page).getByRole('paragraph')).toHaveText(
    `“${unc}” is not a web link (only http(s) URLs are checked).`,
  )

  // A scanned document the server knows, whose citation has no link at all.
  await form.getByLabel('Link').fill('')
  await form.getByLabel('Server').selectOption(SERVER)
  await form.getByLabel('Segment id').fill('it-scan-0042#0')
  await form.getByLabel('Check as').selectOption({ label: 'Bob Martins (engineering)' })
  await form.getByLabel('Segment id').press('Enter')
  await expect(card(page).getByText('no link', { exact: true })).toBeVisible()
  await expect(card(page).getByRole('paragraph')).toHaveText(
    'The server confirms access but gives no link, and the citation carries none.',
  )
  const history = page.getByRole('table', { name: 'Recent checks' })
  await expect(history.getByRole('row').nth(1)).toContainText('no link')
  await expect(history.getByRole('row').nth(2)).toContainText('not a web link')
  await screenshots(page, 'access-no-link')
})

test('a batch is checked as the profile chosen for it, and can be checked again as another', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  await openAccess(page, launch, demo)
  await page.getByRole('tab', { name: /^Check all/ }).click()
  const batchForm = page.getByRole('form', { name: 'Check a list of links' })
  await batchForm.getByLabel('Check as').selectOption({ label: 'Alice Lee (sales)' })
  const box = page.getByLabel('Links to check, one per line')
  await box.fill(`${demo.docs}/docs/hb-pto-policy`)
  await box.press('ControlOrMeta+Enter')

  const batch = page.getByRole('region', { name: /^Batch: Links pasted at / })
  await expect(batch.getByLabel('Checked as')).toHaveValue('alice')
  const table = batch.getByRole('table', { name: 'Verdicts' })
  await table.getByRole('button', { name: /^Show the verdict on / }).click()
  await expect(card(page)).toContainText('alice@example.com')
  await expect(card(page)).toContainText('opens')

  await page.getByRole('tab', { name: /^Check all/ }).click()
  await batch.getByLabel('Checked as').selectOption({ label: 'Carol Mendes (legal, admin)' })
  await expect(batch.getByLabel('Checked as')).toHaveValue('carol')
  await expect(page.getByLabel('Batch', { exact: true })).toBeVisible()
  await screenshots(page, 'access-batch-check-as')
  await batch
    .getByRole('table', { name: 'Verdicts' })
    .getByRole('button', { name: /^Show the verdict on / })
    .click()
  await expect(card(page)).toContainText('carol@example.com')
})

test('an admin allows an intranet host and denies an address range in the link policy; the next check obeys at once', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  const { form } = await openAccess(page, launch, demo)
  const link = form.getByLabel('Link')
  // The document host runs where the registry's server does (127.0.0.1): checked.
  await link.fill(`${demo.docs}/docs/hb-pto-policy`)
  await link.press('Enter')
  await expect(card(page)).toContainText('opens')
  // The same machine under a name no server of the registry uses: refused, saying why.
  const intranet = demo.docs.replace('127.0.0.1', 'localhost')
  await link.fill(`${intranet}/docs/hb-pto-policy`)
  await link.press('Enter')
  await expect(card(page)).toContainText('address refused')
  await expect(card(page)).toContainText('a loopback address (this machine)')

  await page.getByRole('tab', { name: 'Link policy' }).click()
  const policy = page.getByRole('form', { name: 'Link policy' })
  await expect(policy.getByLabel('Allowed hosts')).toHaveValue('')
  await policy.getByLabel('Private hosts').fill(' localhost ')
  await policy.getByRole('button', { name: 'Save link policy' }).click()
  await expect(policy.getByRole('status')).toHaveText('Saved; the next check applies it.')
  await page.getByRole('tab', { name: 'Check', exact: true }).click()
  await link.fill(`${intranet}/docs/hb-pto-request`)
  await link.press('Enter')
  await expect(card(page)).toContainText('opens')

  await page.getByRole('tab', { name: 'Link policy' }).click()
  await policy.getByLabel('Denied hosts').fill('intranet.example.com\n\n 127.0.0.0/8 ')
  await policy.getByRole('button', { name: 'Save link policy' }).click()
  await expect(policy.getByRole('status')).toHaveText('Saved; the next check applies it.')
  expect(await invoke(page, 'link-policy:get')).toEqual({
    allowHosts: [],
    denyHosts: ['intranet.example.com', '127.0.0.0/8'],
    privateHosts: ['localhost'],
  })
  await screenshots(page, 'access-link-policy')

  // No restart: the next check of another link on the same host is refused, nothing sent.
  await page.getByRole('tab', { name: 'Check', exact: true }).click()
  await link.fill(`${demo.docs}/docs/hb-health-benefits`)
  await link.press('Enter')
  await expect(card(page)).toContainText('denied by the link policy (127.0.0.0/8)')

  // The saved policy is what the tab shows after a reload.
  await page.reload()
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Access' })
    .click()
  await page.getByRole('tab', { name: 'Link policy' }).click()
  await expect(policy.getByLabel('Denied hosts')).toHaveValue('intranet.example.com\n127.0.0.0/8')
})

test('a signed link is kept without its signature; after a restart the form asks for it again', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  const { host, file, dir } = await launch({ [SERVER]: demo.entry }, { env: demo.env })
  await page.goto(host.url)
  await saveDemoProfiles(page)
  let form = await showAccess(page)
  await invoke(page, 'profiles:activate', { id: 'carol' })
  // Signed for Carol, valid for a while.
  const hit = await findHit(page, SERVER, 'master services agreement clauses', 'lg-msa-overview')
  const signature = new URL(hit.uri!).searchParams.get('sig')!

  await form.getByLabel('Link').fill(hit.uri!)
  await form.getByLabel('Link').press('Enter')
  // The check just made shows its link whole; the history keeps it without its signature.
  await expect(card(page).getByText('opens', { exact: true })).toBeVisible()
  await expect(card(page).locator('dt:text-is("Link") + dd code')).toHaveText(hit.uri!)
  const history = page.getByRole('table', { name: 'Recent checks' })
  const row = history.getByRole('row').nth(1)
  await expect(row.getByText(/docs\/lg-msa-overview/)).toHaveAttribute('title', /sig=\[redacted\]/)
  await expect(history).not.toContainText(signature)
  const plain = `${demo.docs}/docs/hb-pto-policy`
  await form.getByLabel('Link').fill(plain)
  await form.getByLabel('Link').press('Enter')
  await expect(history.getByRole('row')).toHaveCount(3)

  // A console started again on the same data folder has the check, not the signature.
  await page.goto('about:blank')
  await host.stop()
  const again = await launchHost({
    config: file,
    dataDir: host.dataDir,
    env: { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), ...demo.env },
  })
  try {
    await page.goto(again.url)
    form = await showAccess(page)
    await history.getByRole('button', { name: /Show the check of .*lg-msa-overview/ }).click()
    await expect(card(page).locator('dt:text-is("Link") + dd code')).toHaveText(
      /lg-msa-overview\?u=carol%40example.com&exp=\[redacted\]&sig=\[redacted\]$/,
    )
    await expect(card(page)).toContainText('signature not saved')
    await expect(form.getByLabel('Link')).toHaveValue(/sig=\[redacted\]/)
    await expect(form).toContainText('paste the link again')
    await form.getByLabel('Link').press('Enter')
    await expect(page.getByText('The check could not run')).toBeVisible()
    await expect(page.getByText(/the link was signed.*paste it again/)).toBeVisible()
    await screenshots(page, 'access-signed-link-restart')
    expect(await page.content()).not.toContain(signature)

    await form.getByLabel('Link').fill(hit.uri!)
    await form.getByLabel('Link').press('Enter')
    await expect(page.getByText('The check could not run')).toHaveCount(0)
    await expect(card(page).locator('dt:text-is("Link") + dd code')).toHaveText(hit.uri!)
  } finally {
    await page.goto('about:blank')
    await again.stop()
  }
})

test('a link signed for Carol that opens for Alice, whom the server denies, is headlined as a leak', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  const { form } = await openAccess(page, launch, demo)
  await invoke(page, 'profiles:activate', { id: 'carol' })
  // Signed for Carol, valid for a while: it opens for whoever holds it.
  const hit = await findHit(page, SERVER, 'master services agreement clauses', 'lg-msa-overview')
  await checkAsAlice(form, hit)

  const verdict = card(page)
  await expect(verdict.getByText('leak', { exact: true })).toBeVisible()
  await expect(verdict).toContainText(
    /The link opens for anyone who holds it \(HTTP 200, [^)]*\), but the server denies alice@example\.com: "Document is restricted to [^"]*; alice@example\.com is in:/,
  )
  await expect(verdict).toHaveClass(/access-card--bad/)
  await expect(verdict.getByText('opens', { exact: true })).toHaveCount(0)
  const history = page.getByRole('table', { name: 'Recent checks' })
  await expect(history.getByRole('row').nth(1).getByText('leak', { exact: true })).toBeVisible()
  await expectColumnsFit(page, 'the Access panel with a leak')
  await expect(verdict.getByRole('note')).toHaveCount(0)
  await screenshots(page, 'access-leak')

  // "Check as" changes: the verdict shown is marked as Alice's until checked again.
  await form.getByLabel('Check as').selectOption({ label: 'Carol Mendes (legal, admin) (View as)' })
  await expect(verdict.getByRole('note')).toContainText(
    'This verdict is for alice@example.com, checked earlier. “Check as” is now Carol Mendes',
  )
  await expect(verdict.getByText('as alice@example.com', { exact: true })).toBeVisible()
  await screenshots(page, 'access-earlier-user')
  await form.getByRole('button', { name: 'Check' }).click()
  await expect(verdict.getByText('opens', { exact: true })).toBeVisible()
  await expect(verdict.getByRole('note')).toHaveCount(0)
  await expect(verdict).toContainText('carol@example.com')
})
