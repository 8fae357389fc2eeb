import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { repoRoot } from '#test/support/process/built'
import { loadSource, type LoadResult } from './load'
import { tempDir, writeFile } from '#test/support/files/temp-files'

const fixtures = join(import.meta.dirname, '../../../test/fixtures/config')
const temps: Array<() => void> = []
afterEach(() => temps.splice(0).forEach((cleanup) => cleanup()))

function load(path: string): LoadResult {
  return loadSource({ kind: 'file', files: [path], writableFile: path, label: path }, () => {
    throw new Error('no embedded registry in these tests')
  })
}

/** Writes `text` as a rag-mcp.json in a fresh temp folder and loads it. */
function loadText(text: string): LoadResult & { path: string } {
  const { dir, cleanup } = tempDir()
  temps.push(cleanup)
  const path = writeFile(join(dir, 'rag-mcp.json'), text)
  return { ...load(path), path }
}

const server = (result: LoadResult, id: string) => result.build.servers.find((s) => s.id === id)
const rules = (result: LoadResult) =>
  result.build.diagnostics.map((d) => `${d.severity}:${d.rule}:${d.path}`)

describe('seed examples', () => {
  it('loads the spec 001 example as-is', () => {
    const result = load(join(fixtures, 'spec-001.json'))
    expect(result.build.ok).toBe(true)
    expect(result.build.diagnostics).toEqual([])
    expect(server(result, 'docsRag')).toMatchObject({
      transport: 'http',
      url: 'https://mcp.example.com',
      groups: ['users'],
      description: 'Company docs RAG',
      enabled: true,
    })
  })

  it('loads both spec 002 examples, keeping servers without an endpoint disabled', () => {
    for (const name of ['spec-002-rag-mcp.json', 'spec-002-config-design.json']) {
      const result = load(join(fixtures, name))
      expect(result.build.ok).toBe(true)
      expect(server(result, 'docsRag')).toMatchObject({
        enabled: false,
        ui: { icon: 'book', order: 10, defaultSelected: true },
        dataSources: [
          { id: 'handbook', authMode: 'none', defaultSelected: true },
          { id: 'legal', groups: ['legal', 'admin'], authMode: 'capability' },
        ],
      })
      expect(rules(result)).toContain('warning:no_endpoint:docsRag')
    }
    const notion = server(load(join(fixtures, 'spec-002-rag-mcp.json')), 'notionRag')
    expect(notion).toMatchObject({ enabled: false, groups: ['users'] })
  })

  it('loads the architecture example with its comments', () => {
    const result = load(join(fixtures, 'architecture.jsonc'))
    expect(result.build.ok).toBe(true)
    expect(result.build.diagnostics).toEqual([])
    expect(server(result, 'docsRag')).toMatchObject({
      headers: { 'X-Tenant': 'acme', Authorization: 'Bearer ${keychain:apiKey}' },
      timeoutMs: 10000,
    })
    expect(server(result, 'localKb')).toMatchObject({
      transport: 'stdio',
      command: 'node',
      env: { KB_TOKEN: '${keychain:token}' },
    })
  })
})

describe('diagnostics', () => {
  it('locates a bad canary expectation and keeps a good canary on the entry', () => {
    const result = loadText(
      [
        '{',
        '  "docs": {',
        '    "url": "https://rag.example.com/mcp",',
        '    "canaries": [',
        '      { "query": "vpn", "expect": { "minHits": 2, "docInTopK": { "doc": "vpn-guide", "k": 3 } } },',
        '      { "query": "pto", "expect": { "maxLatencyMs": -5, "minHits": "many" } }',
        '    ]',
        '  }',
        '}',
      ].join('\n'),
    )
    expect(result.build.ok).toBe(false)
    expect(
      result.build.diagnostics.map(({ path, line, column }) => ({ path, line, column })),
    ).toEqual([
      { path: 'docs.canaries[1].expect.maxLatencyMs', line: 6, column: 53 },
      { path: 'docs.canaries[1].expect.minHits', line: 6, column: 68 },
    ])
    const fixed = loadText(
      '{ "docs": { "url": "https://x/mcp", "canaries": [{ "query": "vpn", "expect": { "minHits": 2 } }] } }',
    )
    expect(server(fixed, 'docs')?.canaries).toEqual([{ query: 'vpn', expect: { minHits: 2 } }])
  })

  it('reports every problem at once, each with path, line, column and rule', () => {
    const result = loadText(
      [
        '{',
        '  "docsRag": {',
        '    "url": "https://rag.example.com/mcp",',
        '    "transport": "https",',
        '    "timeoutMs": "10s",',
        '    "descripton": "Docs",',
        '    "dataSources": [{ "id": "a" }, { "name": "no id" }]',
        '  },',
        '  "kb": { "command": "kb", "env": { "KB_TOKEN": "${keychain:}" } }',
        '}',
      ].join('\n'),
    )
    expect(result.build.ok).toBe(false)
    expect(
      result.build.diagnostics.map(({ severity, path, line, column, rule }) => ({
        severity,
        path,
        line,
        column,
        rule,
      })),
    ).toEqual([
      { severity: 'error', path: 'docsRag.transport', line: 4, column: 18, rule: 'invalid_enum' },
      { severity: 'error', path: 'docsRag.timeoutMs', line: 5, column: 18, rule: 'invalid_type' },
      {
        severity: 'warning',
        path: 'docsRag.descripton',
        line: 6,
        column: 5,
        rule: 'unknown_field',
      },
      {
        severity: 'error',
        path: 'docsRag.dataSources[1].id',
        line: 7,
        column: 36,
        rule: 'invalid_type',
      },
      {
        severity: 'error',
        path: 'kb.env.KB_TOKEN',
        line: 9,
        column: 50,
        rule: 'malformed_reference',
      },
    ])
    const [transport, timeout, unknown] = result.build.diagnostics
    expect(transport!.message).toBe(
      "docsRag.transport: expected http, sse or stdio, got 'https' (line 4, col 18)",
    )
    expect(timeout!.message).toContain("expected a number, got '10s'")
    expect(unknown!.message).toContain("did you mean 'description'?")
    expect(result.build.diagnostics.every((d) => d.file === result.path)).toBe(true)
  })

  it('locates JSON syntax errors and keeps going', () => {
    const result = loadText(
      '{\n  "a": { "url": "http://x/mcp" }\n  "b": { "url": "http://y/mcp", }\n}',
    )
    expect(result.build.diagnostics).toEqual([
      expect.objectContaining({ rule: 'json_syntax', line: 3, column: 3, severity: 'error' }),
    ])
    expect(result.build.diagnostics[0]!.message).toContain("expected ',' between values")
  })

  it('accepts comments and trailing commas', () => {
    const result = loadText('// servers\n{ "a": { /* x */ "url": "http://x/mcp", }, }\n')
    expect(result.build.ok).toBe(true)
  })

  it('reports an empty file as an error that says what to write', () => {
    const result = loadText('  \n')
    expect(result.build.diagnostics[0]).toMatchObject({ rule: 'empty_file', line: 1, column: 1 })
  })

  it('reports a duplicated key at its second definition', () => {
    const result = loadText(
      '{\n  "a": { "url": "http://x/mcp" },\n  "a": { "url": "http://y/mcp" }\n}',
    )
    expect(result.build.diagnostics).toEqual([
      expect.objectContaining({ rule: 'duplicate_key', path: 'a', line: 3, column: 3 }),
    ])
  })

  it('treats unknown fields at any depth as warnings with hints', () => {
    const result = loadText(
      '{ "a": { "url": "http://x/mcp", "timeout": 5, "ui": { "colour": "red" }, "launch": { "command": "x", "readyPatern": "ok" } } }',
    )
    expect(result.build.ok).toBe(true)
    expect(rules(result)).toEqual([
      'warning:unknown_field:a.timeout',
      'warning:unknown_field:a.ui.colour',
      'warning:unknown_field:a.launch.readyPatern',
    ])
    expect(result.build.diagnostics[0]!.message).toContain('use timeoutMs (milliseconds)')
    expect(result.build.diagnostics[2]!.message).toContain("did you mean 'readyPattern'?")
    expect(server(result, 'a')!.ui).toEqual({})
    expect(server(result, 'a')!.launch).not.toHaveProperty('readyPatern')
  })

  it('rejects server ids that would break keychain accounts and selectors', () => {
    const result = loadText(
      '{ "a/b": { "url": "http://x/mcp" }, "c:d": { "url": "http://x/mcp" } }',
    )
    expect(rules(result)).toEqual(['error:invalid_id:["a/b"]', 'error:invalid_id:["c:d"]'])
  })
})

describe('transports', () => {
  it('infers stdio from command, sse from a /sse path, else http', () => {
    const result = loadText(
      JSON.stringify({
        a: { command: 'node', args: ['kb.js'] },
        b: { url: 'http://127.0.0.1:1/sse' },
        c: { url: 'http://127.0.0.1:1/sse/?x=1' },
        d: { url: 'http://127.0.0.1:1/mcp' },
      }),
    )
    expect(result.build.servers.map((s) => `${s.id}:${s.transport}`)).toEqual([
      'a:stdio',
      'b:sse',
      'c:sse',
      'd:http',
    ])
  })

  it('accepts type as an alias of transport', () => {
    const result = loadText(
      JSON.stringify({
        a: { type: 'streamable-http', url: 'http://x/sse' },
        b: { type: 'sse', url: 'http://x/events' },
        c: { type: 'stdio', command: 'kb' },
      }),
    )
    expect(result.build.servers.map((s) => s.transport)).toEqual(['http', 'sse', 'stdio'])
  })

  it('reports a type that disagrees with transport', () => {
    const result = loadText(
      JSON.stringify({ a: { type: 'sse', transport: 'http', url: 'http://x/mcp' } }),
    )
    expect(rules(result)).toEqual(['error:transport_conflict:a.type'])
  })

  it('requires a url for http and sse and a command for stdio', () => {
    const result = loadText(
      JSON.stringify({ a: { transport: 'http' }, b: { transport: 'stdio', url: 'http://x' } }),
    )
    expect(rules(result)).toEqual(
      expect.arrayContaining([
        'error:missing_url:a.transport',
        'error:missing_command:b.transport',
      ]),
    )
  })

  it('rejects a url that is not absolute http(s)', () => {
    const result = loadText(
      JSON.stringify({ a: { url: 'rag.example.com/mcp' }, b: { url: 'ftp://x/y' } }),
    )
    expect(rules(result)).toEqual(['error:invalid_url:a.url', 'error:invalid_url:b.url'])
  })

  it('rejects header values with line breaks, NUL or characters beyond Latin-1, at their line', () => {
    const result = loadText(
      [
        '{',
        '  "a": {',
        '    "url": "https://rag.example.com/mcp",',
        '    "headers": {',
        '      "X-Tenant": "acme\\r\\nX-Injected: 1",',
        '      "X-Nul": "a\\u0000b",',
        '      "X-Name": "Zo\u00eb \u2713",',
        '      "X-Fine": "caf\u00e9 ${keychain:k}"',
        '    }',
        '  }',
        '}',
      ].join('\n'),
    )
    expect(result.build.ok).toBe(false)
    expect(
      result.build.diagnostics.map(({ severity, rule, path, line, column }) => ({
        severity,
        rule,
        path,
        line,
        column,
      })),
    ).toEqual([
      {
        severity: 'error',
        rule: 'invalid_header_value',
        path: 'a.headers.X-Tenant',
        line: 5,
        column: 19,
      },
      {
        severity: 'error',
        rule: 'invalid_header_value',
        path: 'a.headers.X-Nul',
        line: 6,
        column: 16,
      },
      {
        severity: 'error',
        rule: 'invalid_header_value',
        path: 'a.headers.X-Name',
        line: 7,
        column: 17,
      },
    ])
    const [crlf, nul, wide] = result.build.diagnostics.map((d) => d.message)
    expect(crlf).toContain('line break')
    expect(nul).toContain('NUL')
    expect(wide).toContain("'✓'")
  })

  it('runs command over stdio when an entry has both url and command, with a warning', () => {
    const result = loadText(JSON.stringify({ a: { url: 'http://x/mcp', command: 'srv' } }))
    expect(server(result, 'a')!.transport).toBe('stdio')
    expect(rules(result)).toEqual(['warning:ambiguous_transport:a.command'])
  })

  it('warns about fields the transport ignores', () => {
    const result = loadText(
      JSON.stringify({
        a: { transport: 'http', url: 'http://x/mcp', command: 'srv', env: { A: '1' } },
        b: { transport: 'stdio', command: 'kb', headers: { 'X-A': '1' } },
      }),
    )
    expect(result.build.ok).toBe(true)
    expect(rules(result)).toEqual([
      'warning:ignored_field:a.command',
      'warning:ignored_field:a.env',
      'warning:ignored_field:b.headers',
    ])
  })
})

describe('defaults and normalisation', () => {
  it('fills every default and resolves the working directory against the file', () => {
    const result = loadText(
      JSON.stringify({ a: { command: 'kb' }, b: { command: 'kb', cwd: 'srv' } }),
    )
    const folder = join(result.path, '..')
    expect(server(result, 'a')).toEqual({
      id: 'a',
      transport: 'stdio',
      command: 'kb',
      args: [],
      env: {},
      cwd: folder,
      headers: {},
      groups: [],
      isExclusive: false,
      enabled: true,
      dialect: 'auto',
      timeoutMs: 15000,
      ui: {},
      dataSources: [],
      origin: result.path,
    })
    expect(server(result, 'b')!.cwd).toBe(join(folder, 'srv'))
  })

  it('orders servers by ui.order, then as written', () => {
    const result = loadText(
      JSON.stringify({
        a: { url: 'http://x/mcp' },
        b: { url: 'http://x/mcp', ui: { order: 2 } },
        c: { url: 'http://x/mcp', ui: { order: 1 } },
      }),
    )
    expect(result.build.servers.map((s) => s.id)).toEqual(['c', 'b', 'a'])
  })

  it('requires a mapping for the generic dialect', () => {
    const result = loadText(
      JSON.stringify({
        a: { url: 'http://x/mcp', dialect: 'generic' },
        b: { url: 'http://x/mcp', dialect: { search: { tool: 'find', hits: 'items' } } },
      }),
    )
    expect(rules(result)).toEqual(['error:generic_needs_mapping:a.dialect'])
  })

  it("takes a mapping's score order and refuses one it does not know", () => {
    const mapping = (scoreOrder: string) => ({
      url: 'http://x/mcp',
      dialect: { search: { tool: 'find', fields: { score: 'distance' }, scoreOrder } },
    })
    const result = loadText(
      JSON.stringify({ a: mapping('lower-is-better'), b: mapping('smaller') }),
    )
    expect(rules(result)).toEqual(['error:invalid_enum:b.dialect.search.scoreOrder'])
    expect(result.build.diagnostics[0]!.message).toMatch(/higher-is-better.*lower-is-better/)
  })

  it('warns about a timeout that was probably meant in seconds', () => {
    const result = loadText(JSON.stringify({ a: { url: 'http://x/mcp', timeoutMs: 15 } }))
    expect(result.build.diagnostics[0]!.message).toContain('did you mean 15000?')
  })
})

describe('numeric ranges', () => {
  /** The one error of a single-server file whose `field` (a dotted path) holds `value`. */
  function rangeError(fields: string, value: string) {
    const result = loadText(
      `{\n  "s": {\n    "url": "http://x/mcp",\n    ${fields}: ${value}\n  }\n}\n`,
    )
    expect(result.build.ok).toBe(false)
    const errors = result.build.diagnostics.filter((d) => d.severity === 'error')
    expect(errors).toHaveLength(1)
    return errors[0]!
  }

  it('rejects a timeoutMs of 2^31 ms or more, which would make every call time out at once', () => {
    for (const value of ['2147483648', '1e12']) {
      expect(rangeError('"timeoutMs"', value), value).toMatchObject({
        path: 's.timeoutMs',
        line: 4,
        column: 18,
        message: expect.stringMatching(/expected a number of at most 300000, got \d+/),
      })
    }
    expect(rangeError('"timeoutMs"', '1e400')).toMatchObject({
      path: 's.timeoutMs',
      message: expect.stringMatching(/got a number too large to represent/),
    })
  })

  it('rejects a zero, negative or fractional timeoutMs', () => {
    for (const value of ['0', '-5', '1500.5']) {
      expect(rangeError('"timeoutMs"', value), value).toMatchObject({ path: 's.timeoutMs' })
    }
  })

  it('rejects a launch.readyTimeoutMs beyond ten minutes', () => {
    const error = rangeError('"launch": { "command": "srv", "readyTimeoutMs"', '99999999999 }')
    expect(error).toMatchObject({
      path: 's.launch.readyTimeoutMs',
      line: 4,
      message: expect.stringMatching(/at most 600000/),
    })
  })

  it('rejects a ui.order too large to sort by', () => {
    for (const value of ['1e300', '-1e300', '-1e400']) {
      expect(rangeError('"ui": { "order"', `${value} }`), value).toMatchObject({
        path: 's.ui.order',
        message: expect.stringMatching(/1000000|too large to represent/),
      })
    }
  })

  it('accepts the bounds themselves', () => {
    const result = loadText(
      JSON.stringify({
        s: {
          command: 'srv',
          timeoutMs: 300_000,
          ui: { order: -1_000_000 },
        },
        t: {
          url: 'http://x/mcp',
          timeoutMs: 1,
          launch: { command: 'srv', readyTimeoutMs: 600_000 },
        },
      }),
    )
    expect(result.build.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  })
})

describe('forms of other MCP clients', () => {
  it('reads the Claude Desktop / Cursor form and reports paths inside it', () => {
    const result = loadText(
      JSON.stringify(
        {
          mcpServers: {
            kb: { command: 'npx', args: ['-y', 'kb-server'], env: { KB: '${env:KB}' } },
            docs: { url: 'https://x.example/sse', transport: 'smtp' },
          },
          globalShortcut: 'Ctrl+Space',
        },
        null,
        2,
      ),
    )
    expect(rules(result)).toEqual([
      'error:invalid_enum:mcpServers.docs.transport',
      'warning:unknown_field:globalShortcut',
    ])
  })

  it('reads the VS Code form, turning password inputs into keychain references', () => {
    const result = load(join(fixtures, 'vscode-mcp.json'))
    expect(result.build.ok).toBe(true)
    expect(server(result, 'rag')!.headers).toEqual({
      Authorization: 'Bearer ${keychain:ragKey}',
      'X-Tenant': '${keychain:tenant}',
    })
    expect(rules(result)).toEqual(['warning:input_reference:servers.rag.headers.X-Tenant'])
  })

  it('rejects an input reference that no input declares', () => {
    const result = loadText(
      JSON.stringify({
        servers: { docs: { url: 'https://x/mcp', headers: { A: '${input:nope}' } } },
      }),
    )
    expect(rules(result)).toEqual(['error:unknown_input:servers.docs.headers.A'])
  })
})

describe('secret references and plaintext secrets', () => {
  it('accepts keychain, env and session references in url, headers and env', () => {
    const result = loadText(
      JSON.stringify({
        a: {
          url: 'https://${env:RAG_HOST}/mcp?key=${keychain:key}',
          headers: { Authorization: 'Bearer ${session:token}' },
        },
        b: { command: 'kb', env: { KB_TOKEN: '${keychain:kb-token}' } },
      }),
    )
    expect(result.build.diagnostics).toEqual([])
  })

  it('rejects malformed references, each with what to write instead', () => {
    const result = loadText(
      JSON.stringify({
        a: {
          url: 'https://x/mcp',
          headers: { A: '${vault:x}', B: '${API_KEY}', C: '${env:MY VAR}', D: '${keychain:x' },
        },
      }),
    )
    const messages = result.build.diagnostics.map((d) => d.message)
    expect(result.build.diagnostics.map((d) => d.rule)).toEqual(
      Array(4).fill('malformed_reference'),
    )
    expect(messages[0]).toContain("unknown reference kind 'vault'")
    expect(messages[1]).toContain('write ${env:API_KEY}')
    expect(messages[2]).toContain("invalid name 'MY VAR' in ${env:…}")
    expect(messages[3]).toContain('unterminated reference')
  })

  it('warns about references where they are not resolved', () => {
    const result = loadText(
      JSON.stringify({
        a: {
          url: 'http://127.0.0.1:9/mcp',
          launch: { command: 'kb', args: ['--key', '${keychain:k}'] },
        },
      }),
    )
    expect(rules(result)).toEqual(['warning:reference_not_resolved:a.launch.args[1]'])
  })

  it("resolves references in a stdio server's args, and checks their form", () => {
    const result = loadText(
      JSON.stringify({
        a: { command: 'kb', args: ['--key', '${keychain:k}', '--token=${keychain:}'] },
      }),
    )
    expect(rules(result)).toEqual(['error:malformed_reference:a.args[2]'])
  })

  it('warns about plaintext-looking secrets without repeating them', () => {
    const secrets = [
      'abc123literaltoken',
      'rbx_live_9f8e7d6c5b4a',
      'q8Zr2LmX0vKp7TgW4sYh1NcB',
      's3cr3t-Val',
    ]
    const result = loadText(
      JSON.stringify({
        a: {
          url: `https://x.example/mcp?api_key=${secrets[3]}`,
          headers: {
            Authorization: `Bearer ${secrets[0]}`,
            'X-API-Key': secrets[1],
            'X-Tenant': 'acme',
          },
        },
        b: { command: 'kb', env: { KB_SEED: secrets[2], LOG_LEVEL: 'debug' } },
      }),
    )
    expect(rules(result)).toEqual([
      'warning:plaintext_secret:a.url',
      'warning:plaintext_secret:a.headers.Authorization',
      'warning:plaintext_secret:a.headers.X-API-Key',
      'warning:plaintext_secret:b.env.KB_SEED',
    ])
    expect(result.build.diagnostics[1]!.message).toContain('"Bearer ${keychain:token}"')
    for (const diagnostic of result.build.diagnostics) {
      for (const secret of secrets) expect(diagnostic.message).not.toContain(secret)
    }
  })
})

describe('docs/configuration.md', () => {
  it('has configuration examples that load without warnings', () => {
    const section = readFileSync(join(repoRoot, 'docs/configuration.md'), 'utf8')
    const examples = [...section.matchAll(/```jsonc\n([\s\S]*?)```/g)].map((match) => match[1]!)
    expect(examples.length).toBeGreaterThanOrEqual(3)
    for (const example of examples) {
      const result = loadText(example)
      expect(result.build.diagnostics, example).toEqual([])
      expect(result.build.servers.length).toBeGreaterThan(0)
    }
  })
})

describe('oauth block', () => {
  it('keeps a valid oauth block on the server config', () => {
    const oauth = {
      clientId: 'console',
      clientSecret: '${keychain:oauthClientSecret}',
      scopes: ['rag:read'],
      redirectPort: 47999,
      tokenEndpointAuthMethod: 'client_secret_basic',
    }
    const result = loadText(JSON.stringify({ a: { url: 'https://rag.example.com/mcp', oauth } }))
    expect(result.build.diagnostics).toEqual([])
    expect(server(result, 'a')?.oauth).toEqual(oauth)
  })

  it('reports a plaintext client secret, bad URLs, a grant without secret and a bad port at their line', () => {
    const text = [
      '{',
      '  "a": {',
      '    "url": "https://rag.example.com/mcp",',
      '    "oauth": {',
      '      "clientId": "console",',
      '      "clientSecret": "s3cr3t-plain-value",',
      '      "clientMetadataUrl": "http://insecure.example.com/client.json",',
      '      "tokenEndpoint": "not a url"',
      '    }',
      '  },',
      '  "b": { "url": "https://x.example.com/mcp", "oauth": { "grant": "client_credentials" } },',
      '  "c": { "url": "https://x.example.com/mcp", "oauth": { "redirectPort": 80 } }',
      '}',
    ].join('\n')
    const result = loadText(text)
    expect(rules(result)).toEqual([
      'error:secret_not_referenced:a.oauth.clientSecret',
      'error:invalid_url:a.oauth.clientMetadataUrl',
      'error:invalid_url:a.oauth.tokenEndpoint',
      'error:missing_client_secret:b.oauth.grant',
      'error:invalid_value:c.oauth.redirectPort',
    ])
    const secret = result.build.diagnostics[0]!
    expect([secret.line, secret.column]).toEqual([6, 23])
    expect(secret.message).not.toContain('s3cr3t-plain-value')
  })
})
