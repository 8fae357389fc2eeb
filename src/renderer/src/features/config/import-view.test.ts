import { describe, expect, it } from 'vitest'
import type { ImportedServer, ImportPreview } from '#shared/ipc/registry'
import type { Diagnostic } from '#shared/model/registry'
import {
  connectionLine,
  importableIds,
  importSourceOf,
  isBlocked,
  pickedOf,
  toggled,
} from './import-view'

describe('connectionLine', () => {
  it('labels a Cursor SSE entry without "type" as the console will connect it: sse', () => {
    expect(connectionLine({ url: 'http://localhost:8000/sse' })).toBe(
      'sse: http://localhost:8000/sse',
    )
    expect(connectionLine({ type: 'sse', url: 'http://localhost:8000/events' })).toBe(
      'sse: http://localhost:8000/events',
    )
  })

  it('labels streamable HTTP and stdio entries', () => {
    expect(connectionLine({ url: 'http://h/mcp' })).toBe('http: http://h/mcp')
    expect(connectionLine({ type: 'streamable-http', url: 'http://h/mcp' })).toBe(
      'http: http://h/mcp',
    )
    expect(connectionLine({ command: 'npx', args: ['-y', 'srv'] })).toBe('stdio: npx -y srv')
    expect(connectionLine({})).toBe('?: ')
  })
})

const problem = (severity: Diagnostic['severity']): Diagnostic =>
  ({ severity, message: severity, path: 'x' }) as Diagnostic
const server = (
  id: string,
  status: ImportedServer['status'],
  diagnostics: Diagnostic[] = [],
): ImportedServer => ({ id, status, fields: {}, diagnostics })
const preview = (servers: ImportedServer[]): ImportPreview => ({
  from: 'mcp.json',
  form: 'mcpServers',
  target: { path: '/c/rag-mcp.json', hash: 'h', exists: true },
  servers,
  requiredSecrets: [],
  secretsToMove: [
    { server: 'a', name: 'A_TOKEN', where: 'env.A_TOKEN' },
    { server: 'b', name: 'B_TOKEN', where: 'headers.Authorization' },
  ],
  diagnostics: [],
})

describe('which servers can be imported', () => {
  it('blocks a server with an error or one already configured the same way, not one with a warning', () => {
    expect(isBlocked(server('a', 'added', [problem('error')]))).toBe(true)
    expect(isBlocked(server('a', 'unchanged'))).toBe(true)
    expect(isBlocked(server('a', 'changed', [problem('warning')]))).toBe(false)
  })

  it('picks every importable server at first', () => {
    const file = preview([
      server('a', 'added'),
      server('b', 'changed', [problem('warning')]),
      server('c', 'unchanged'),
      server('d', 'added', [problem('error')]),
    ])
    expect([...importableIds(file)]).toEqual(['a', 'b'])
  })

  it('adds and takes out a pick in a new set, the old one unchanged', () => {
    const old = new Set(['a'])
    expect([...toggled(old, 'b', true)]).toEqual(['a', 'b'])
    expect([...toggled(old, 'a', false)]).toEqual([])
    expect([...old]).toEqual(['a'])
  })

  it('moves only the credentials of the picked servers to the keychain', () => {
    const file = preview([server('a', 'added'), server('b', 'added')])
    const picked = pickedOf(file, new Set(['b']))
    expect(picked.servers.map((s) => s.id)).toEqual(['b'])
    expect(picked.secrets.map((s) => s.name)).toEqual(['B_TOKEN'])
  })
})

describe('what "Preview import" sends', () => {
  const none = { choice: '', otherPath: '', upload: null }
  const file = { name: 'mcp.json', text: '{"mcpServers":{}}' }

  it('sends nothing before a file is picked', () => {
    expect(importSourceOf(none)).toBeNull()
  })

  it('sends a found file by its path', () => {
    expect(importSourceOf({ ...none, choice: '/home/a/.cursor/mcp.json' })).toEqual({
      path: '/home/a/.cursor/mcp.json',
    })
  })

  it('sends another path trimmed, and nothing while it is blank', () => {
    expect(importSourceOf({ ...none, choice: 'other', otherPath: '  /x/mcp.json ' })).toEqual({
      path: '/x/mcp.json',
    })
    expect(importSourceOf({ ...none, choice: 'other', otherPath: '   ' })).toBeNull()
  })

  it('sends an uploaded file by its text and name, not a path', () => {
    expect(importSourceOf({ ...none, choice: 'upload', upload: file })).toEqual(file)
  })

  it('sends nothing while "Upload a file" is picked and no file is chosen yet', () => {
    expect(importSourceOf({ ...none, choice: 'upload' })).toBeNull()
  })

  it('keeps a typed path and an upload apart from the other pick', () => {
    expect(importSourceOf({ choice: '/c/a.json', otherPath: '/x', upload: file })).toEqual({
      path: '/c/a.json',
    })
    expect(importSourceOf({ choice: 'other', otherPath: '/x', upload: file })).toEqual({
      path: '/x',
    })
  })
})
