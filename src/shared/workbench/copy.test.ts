import { describe, expect, it } from 'vitest'
import { cliCommand, curlCommand, headerWithPlaceholders, shellQuote } from './copy'

const call = { server: 'docs', tool: 'search', arguments: { query: "it's here" } }
const user = { userId: 'bob@example.com', sessionTags: ['department:legal'] }

describe('shellQuote', () => {
  it('leaves plain words alone and single-quotes the rest, quotes included', () => {
    expect(shellQuote('docs')).toBe('docs')
    expect(shellQuote(`it's $HOME`)).toBe(`'it'\\''s $HOME'`)
  })
})

describe('headerWithPlaceholders', () => {
  it('turns keychain, env and session references into shell variables', () => {
    expect(headerWithPlaceholders('Authorization', 'Bearer ${keychain:apiKey}')).toBe(
      'Bearer ${APIKEY}',
    )
    expect(headerWithPlaceholders('X-Tenant', '${env:tenant-id}')).toBe('${TENANT_ID}')
  })

  it('replaces a plaintext credential, keeping its scheme', () => {
    expect(headerWithPlaceholders('Authorization', 'Bearer abc123secret')).toMatch(
      /^Bearer \$\{[A-Z_]+\}$/,
    )
    expect(headerWithPlaceholders('X-API-Key', 'sk-live-0123456789abcdef')).toMatch(
      /^\$\{[A-Z_]+\}$/,
    )
  })

  it('keeps ordinary values, escaped for double quotes', () => {
    expect(headerWithPlaceholders('X-Note', 'say "hi" for $5')).toBe('say \\"hi\\" for \\$5')
  })
})

describe('cliCommand', () => {
  it('names a registry server by id, with the acting user', () => {
    expect(cliCommand(call, { kind: 'registry', transport: 'stdio', headers: {} }, user)).toBe(
      `rag-console --user bob@example.com --tags '["department:legal"]' call --server docs --tool search --args '{"query":"it'\\''s here"}'`,
    )
  })

  it('names a tried URL server by URL and headers, secrets as placeholders', () => {
    const command = cliCommand(call, {
      kind: 'url',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { 'X-API-Key': 'sk-live-0123456789abcdef' },
    })
    expect(command).toMatch(
      /--url http:\/\/127.0.0.1:9\/mcp --transport http --header "X-API-Key: \$\{[A-Z_]+\}"/,
    )
    expect(command).not.toContain('0123456789abcdef')
  })

  it('names a tried stdio server by its command line', () => {
    expect(
      cliCommand(
        { ...call, arguments: {} },
        { kind: 'stdio', command: 'node', args: ['my server.js'] },
      ),
    ).toBe(`rag-console call --stdio 'node '\\''my server.js'\\''' --tool search`)
  })
})

describe('curlCommand', () => {
  it('posts tools/call with the identity headers and secrets as placeholders', () => {
    const curl = curlCommand(
      call,
      {
        kind: 'registry',
        transport: 'http',
        url: 'http://h/mcp',
        headers: { Authorization: 'Bearer ${keychain:token}' },
      },
      user,
    )!
    expect(curl.split(' \\\n  ')).toEqual([
      'curl -sS -X POST http://h/mcp',
      `-H 'Content-Type: application/json'`,
      `-H 'Accept: application/json, text/event-stream'`,
      '-H "Authorization: Bearer ${TOKEN}"',
      `-H 'x-user-id: bob@example.com'`,
      `-H 'x-session-tags: ["department:legal"]'`,
      `--data-raw '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"it'\\''s here"}}}'`,
    ])
  })

  it('has nothing to offer for SSE and stdio servers', () => {
    expect(
      curlCommand(call, { kind: 'url', transport: 'sse', url: 'http://h/sse', headers: {} }),
    ).toBeNull()
    expect(curlCommand(call, { kind: 'stdio', command: 'node', args: [] })).toBeNull()
  })
})

describe('secrets in a URL or a command line', () => {
  it('become shell variables in a double-quoted URL; the rest stays as written', () => {
    const target = {
      kind: 'url' as const,
      transport: 'http' as const,
      url: 'https://rag.example/mcp?api_key=q8Zr2LmX0vKp7TgW&tenant=acme$1',
      headers: {},
    }
    const expected = '"https://rag.example/mcp?api_key=${API_KEY}&tenant=acme\\$1"'
    expect(cliCommand(call, target)).toContain(`--url ${expected} --transport http`)
    expect(curlCommand(call, target)).toContain(`curl -sS -X POST ${expected}`)
  })

  it('become shell variables in a double-quoted --stdio line, its words quoted inside', () => {
    const target = {
      kind: 'stdio' as const,
      command: 'node',
      args: ["it's.js", '--api-key', 'q8Zr2LmX0vKp7TgW', '--token=abc123secretvalue'],
    }
    expect(cliCommand(call, target)).toContain(
      // The shell hands `'it'\\''s.js'` on as `'it'\''s.js'`, which --stdio splits as it's.js.
      `--stdio "node 'it'\\\\''s.js' --api-key \${API_KEY} --token=\${TOKEN}"`,
    )
  })
})
