import { expect, test } from './host'

/**
 * The page's bridge against what a broken or hostile host could send: a proxy in the browser
 * (Playwright's WebSocket routing) passes the real host's traffic through and injects
 * malformed messages.
 */

interface Bridge {
  invoke: (channel: string) => Promise<unknown>
}

/** Replies the proxy gives instead of the host, by channel. */
const MALFORMED_REPLIES: Record<string, (id: number) => string> = {
  'probe:cut-short': (id) => `{"id":${id},"response":{"ok":tr`,
  'probe:not-a-response': (id) => JSON.stringify({ id, response: 'fine' }),
  'probe:error-without-code': (id) =>
    JSON.stringify({ id, response: { ok: false, error: 'broken' } }),
}

/** Messages nobody asked for, none of them a reply or an event the page knows. */
const UNSOLICITED = [
  'not json',
  'null',
  '42',
  '[]',
  '{"event": 5}',
  '{"event": {"name": "no:such-event", "payload": {}}}',
  '{"id": "7", "response": {"ok": true}}',
]

test('the bridge ignores malformed messages and fails a call whose reply is malformed', async ({
  page,
  host,
}) => {
  const problems: string[] = []
  const dropped: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
    if (message.text().includes('dropped a malformed message')) dropped.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))

  const toPage: ((text: string) => void)[] = []
  await page.routeWebSocket(/\/ipc\?/, (ws) => {
    const server = ws.connectToServer()
    toPage.push((text) => ws.send(text))
    ws.onMessage((text) => {
      const { id, channel } = JSON.parse(String(text)) as { id: number; channel: string }
      const malformed = MALFORMED_REPLIES[channel]
      if (malformed) ws.send(malformed(id))
      else server.send(text)
    })
    server.onMessage((text) => ws.send(text))
  })
  await page.goto(host.url)
  await expect(page.getByRole('banner')).toContainText('demo registry')

  for (const text of UNSOLICITED) toPage.at(-1)!(text)
  const replies = await page.evaluate(
    (channels) =>
      Promise.all(
        channels.map((channel) =>
          (window as unknown as { ragConsole: Bridge }).ragConsole.invoke(channel),
        ),
      ),
    Object.keys(MALFORMED_REPLIES),
  )
  for (const reply of replies) {
    expect(reply).toEqual({
      ok: false,
      error: {
        code: 'protocol',
        message: expect.stringMatching(/^the console host sent a malformed reply to probe:/),
      },
    })
  }

  // The page lives on: its calls still reach the core and it still renders.
  const info = await page.evaluate(() =>
    (window as unknown as { ragConsole: Bridge }).ragConsole.invoke('app:info'),
  )
  expect(info).toMatchObject({ ok: true, value: { productName: 'RAG Console' } })
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Search' })
    .click()
  await expect(page.getByRole('main', { name: 'Search' })).toBeVisible()
  expect(problems).toEqual([])
  expect(dropped).toHaveLength(UNSOLICITED.length + Object.keys(MALFORMED_REPLIES).length)
})
