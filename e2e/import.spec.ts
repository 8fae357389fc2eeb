import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import {
  expect,
  httpServer,
  openConfig,
  recordFrames,
  registry,
  screenshots,
  test,
} from './console'

const API_KEY = 'sk-live-0123456789abcdefghijklmn'

/** Writes an upload-ready Claude Desktop file with a server whose key is in plain text. */
async function previewPlaintextKey(page: Page, dir: string, server: string) {
  const path = join(dir, 'claude.json')
  writeFileSync(
    path,
    JSON.stringify({
      mcpServers: {
        [server]: { command: 'node', args: ['kb.js'], env: { OPENAI_API_KEY: API_KEY } },
      },
    }),
  )
  await openConfig(page, 'Import')
  await page.getByRole('radio', { name: 'Another file' }).check()
  await page.getByLabel('Path of the file').fill(path)
  await page.getByRole('button', { name: 'Preview import' }).click()
  const preview = page.getByRole('region', { name: 'Import preview' })
  await expect(preview).toContainText('Credentials that go to the keychain')
  await expect(preview).toContainText(`${server} env.OPENAI_API_KEY → \${keychain:OPENAI_API_KEY}`)
  await preview.getByRole('button', { name: 'Import 1 server…' }).click()
  return { preview, confirm: page.getByRole('dialog', { name: 'Import 1 server?' }) }
}

test.describe('with a keychain', () => {
  test.skip(
    !process.env.RAG_KEYRING_READY,
    'needs a Secret Service: run through `bash scripts/with-keyring.sh` (npm test does)',
  )

  test('a plaintext key of an imported file goes to the keychain, never into rag-mcp.json', async ({
    page,
    launch,
  }) => {
    const { host, file, dir } = await launch({ alpha: httpServer('Alpha') })
    const frames = recordFrames(page)
    const server = `kb-${randomBytes(3).toString('hex')}`
    await page.goto(host.url)
    const { preview, confirm } = await previewPlaintextKey(page, dir, server)
    await expect(confirm).toContainText(
      '1 credential found in plain text: stored in the OS keychain',
    )
    await screenshots(page, 'config-import-confirm')
    await confirm.getByRole('button', { name: 'Import' }).click()
    await expect(preview).toContainText('1 credential moved to the keychain')

    const written = readFileSync(file, 'utf8')
    expect(written).toContain('"OPENAI_API_KEY": "${keychain:OPENAI_API_KEY}"')
    expect(written).not.toContain(API_KEY)
    expect(frames.join('\n')).not.toContain(API_KEY)
    // The secrets tab finds the key stored for the new server.
    await openConfig(page, 'Secrets')
    await expect(
      page
        .getByRole('rowgroup', { name: server })
        .getByRole('row', { name: 'keychain secret OPENAI_API_KEY' }),
    ).toContainText('set')
  })
})

test('a plaintext key is written into the file only when the admin chooses so', async ({
  page,
  launch,
}) => {
  const { host, file, dir } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  const { preview, confirm } = await previewPlaintextKey(page, dir, 'kb')
  await confirm.getByRole('checkbox', { name: /Keep them in plain text/ }).check()
  await expect(confirm).toContainText('written into the file as they are')
  await confirm.getByRole('button', { name: 'Import' }).click()
  await expect(preview).toContainText('Imported 1 server: kb')
  expect(readFileSync(file, 'utf8')).toContain(API_KEY)
})

test('servers from a Claude Desktop file are previewed and merged selectively', async ({
  page,
  launch,
}) => {
  const { host, file, dir } = await launch({ alpha: httpServer('Alpha') })
  const claudeDir = join(dir, '.config', 'Claude')
  mkdirSync(claudeDir, { recursive: true })
  writeFileSync(
    join(claudeDir, 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: {
        files: { command: 'npx', args: ['-y', '@example/files-server', '/srv/docs'] },
        wiki: { type: 'http', url: 'http://127.0.0.1:9/wiki/mcp' },
        notes: { command: 'node', args: ['notes.js'], disabled: true },
      },
    }),
  )

  await page.goto(host.url)
  await openConfig(page, 'Import')
  const choices = page.getByRole('radiogroup', { name: 'File to import' })
  await choices.getByRole('radio', { name: /Claude Desktop/ }).check()
  await expect(choices.getByRole('radio', { name: /Cursor/ })).toBeDisabled()
  await page.getByRole('button', { name: 'Preview import' }).click()

  const preview = page.getByRole('region', { name: 'Import preview' })
  await expect(preview).toContainText('3 servers in')
  await expect(preview).toContainText('Claude Desktop / Cursor form')
  const table = preview.getByRole('table', { name: 'Servers to import' })
  await expect(table.getByRole('row')).toHaveCount(4)
  await expect(table).toContainText('stdio: npx -y @example/files-server /srv/docs')
  await expect(table).toContainText('http: http://127.0.0.1:9/wiki/mcp')
  await expect(table.getByRole('row', { name: /notes/ })).toContainText('disabled')
  await expect(table.getByRole('row', { name: /wiki/ })).not.toContainText('disabled')
  await screenshots(page, 'config-import-preview')

  await table.getByRole('checkbox', { name: 'Import notes' }).uncheck()
  await preview.getByRole('button', { name: 'Import 2 servers…' }).click()
  // Nothing is written before the confirmation.
  const confirm = page.getByRole('dialog', { name: 'Import 2 servers?' })
  await expect(confirm).toContainText(`Writes ${file}`)
  expect(readFileSync(file, 'utf8')).not.toContain('"wiki"')
  await confirm.getByRole('button', { name: 'Import' }).click()
  await expect(preview).toContainText('Imported 2 servers: files, wiki')

  const ids = (await registry(page)).servers.map((s) => s.id)
  expect(ids).toEqual(expect.arrayContaining(['alpha', 'files', 'wiki']))
  expect(ids).not.toContain('notes')
  expect(readFileSync(file, 'utf8')).toContain('"transport": "http"')
})

test('a file given by path that does not exist is reported plainly', async ({ page, launch }) => {
  const { host, dir } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  await openConfig(page, 'Import')
  await page.getByRole('radio', { name: 'Another file' }).check()
  await page.getByLabel('Path of the file').fill(join(dir, 'missing.json'))
  await page.getByRole('button', { name: 'Preview import' }).click()
  const problem = page.getByRole('alert').filter({ hasText: 'Cannot preview this file' })
  await expect(problem).toContainText('cannot read')
  await expect(problem).toContainText('pick an existing Claude Desktop')
})

test('an uploaded file is previewed; Preview import waits until one is chosen', async ({
  page,
  launch,
}) => {
  const { host, dir } = await launch({ alpha: httpServer('Alpha') })
  const path = join(dir, 'cursor-mcp.json')
  writeFileSync(path, JSON.stringify({ mcpServers: { wiki: { url: 'http://127.0.0.1:9/mcp' } } }))
  await page.goto(host.url)
  await openConfig(page, 'Import')
  const choices = page.getByRole('radiogroup', { name: 'File to import' })
  const previewImport = page.getByRole('button', { name: 'Preview import' })

  await choices.getByRole('radio', { name: 'Upload a file' }).check()
  await expect(previewImport).toBeDisabled()
  const chooser = page.waitForEvent('filechooser')
  await choices.getByRole('button', { name: 'Choose file…' }).click()
  await (await chooser).setFiles(path)
  await expect(choices).toContainText('cursor-mcp.json')
  await previewImport.click()
  const preview = page.getByRole('region', { name: 'Import preview' })
  await expect(preview).toContainText('Preview: 1 server in')
  await expect(preview).toContainText('cursor-mcp.json')
})
