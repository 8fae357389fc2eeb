import { writeFileSync } from 'node:fs'
import { RAG_FIXTURE } from './demo'
import { expect, openConfig, registryText, screenshots, test, type Entry } from './console'

/** A stdio rag-tools-v1 fixture returning `hits` hits, with a canary that wants five. */
const kb = (hits: number): Entry => ({
  transport: 'stdio',
  command: process.execPath,
  args: [RAG_FIXTURE, '--name', 'kb', '--hits', String(hits)],
  dialect: 'rag-tools-v1',
  canaries: [{ name: 'five hits', query: 'vpn', expect: { minHits: 5 } }],
})

test('an edit that breaks a canary shows as a regression on its reload, next to its diff', async ({
  page,
  launch,
}) => {
  const { host, file } = await launch({ kb: kb(5) })
  await page.goto(host.url)
  await openConfig(page, 'Reload history')
  // One disclosure group per reload (the canaries inside an entry are list items too).
  const entries = page.getByRole('list', { name: 'Reload history' }).getByRole('group')
  // The canary ran once the registry loaded: a pass, recorded on the startup entry.
  await entries.nth(0).getByText('startup').click()
  const startup = entries.nth(0).getByRole('region', { name: 'Canaries after this reload' })
  await expect(startup).toContainText('pass')
  await expect(startup).toContainText('kb “five hits”')

  writeFileSync(file, registryText({ kb: kb(3) }))
  await expect(page.getByText('Canary kb "five hits" fails since the last reload.')).toBeVisible()
  await expect(entries).toHaveCount(2)
  const edited = entries.nth(0)
  await expect(edited).toContainText('1 changed')
  await expect(edited).toContainText('1 canary regression')
  await edited.getByText('file changed').click()
  const canaries = edited.getByRole('region', { name: 'Canaries after this reload' })
  await expect(canaries).toContainText('regression')
  await expect(canaries).toContainText('3 hit(s), expected at least 5')
  await expect(edited).toContainText('kb')
  await screenshots(page, 'config-history-canary')
})
