import { describe, expect, it } from 'vitest'
import {
  EMPTY_TRY,
  commandLine,
  trySpecOf,
  tryReady,
  withHeader,
  withoutHeader,
  type TryDraft,
} from './try-server'

const http: TryDraft = {
  ...EMPTY_TRY,
  url: '  https://rag.example.com/mcp ',
  command: 'ignored',
  headers: [
    { name: ' Authorization ', value: ' Bearer x ' },
    { name: '  ', value: 'unnamed' },
  ],
}
const stdio: TryDraft = {
  ...EMPTY_TRY,
  transport: 'stdio',
  url: 'https://ignored',
  command: ' node ',
  args: 'server.js\n\n  \n--port 1\n',
}

describe('trySpecOf', () => {
  it('sends a trimmed URL and the named headers, values as typed', () => {
    expect(trySpecOf(http)).toEqual({
      transport: 'http',
      url: 'https://rag.example.com/mcp',
      headers: { Authorization: ' Bearer x ' },
    })
    expect(trySpecOf({ ...http, transport: 'sse' })).toMatchObject({ transport: 'sse' })
  })

  it('sends a trimmed command and one argument per non-blank line', () => {
    expect(trySpecOf(stdio)).toEqual({
      transport: 'stdio',
      command: 'node',
      args: ['server.js', '--port 1'],
    })
  })
})

describe('tryReady', () => {
  it('needs a URL over HTTP and SSE, a command over stdio', () => {
    expect(tryReady(EMPTY_TRY)).toBe(false)
    expect(tryReady({ ...EMPTY_TRY, url: '   ' })).toBe(false)
    expect(tryReady(http)).toBe(true)
    expect(tryReady({ ...http, transport: 'stdio', command: ' ' })).toBe(false)
    expect(tryReady(stdio)).toBe(true)
  })
})

describe('commandLine', () => {
  it('shows the command and its arguments as one line to confirm', () => {
    expect(commandLine(stdio)).toBe('node server.js --port 1')
  })
})

describe('header edits', () => {
  const headers = [
    { name: 'a', value: '1' },
    { name: 'b', value: '2' },
  ]

  it('changes one header and leaves the others', () => {
    expect(withHeader(headers, 1, { value: '3' })).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: '3' },
    ])
    expect(headers[1]).toEqual({ name: 'b', value: '2' })
  })

  it('removes one header by its place', () => {
    expect(withoutHeader(headers, 0)).toEqual([{ name: 'b', value: '2' }])
  })
})
