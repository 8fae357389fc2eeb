import { describe, expect, it } from 'vitest'
import { connectionLine } from './import-view'

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
