import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, httpServer, openConfig, registry, screenshots, test } from './console'

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
  await screenshots(page, 'config-import-preview')

  await table.getByRole('checkbox', { name: 'Import notes' }).uncheck()
  await preview.getByRole('button', { name: 'Import 2 servers' }).click()
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
