import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { maskPlaintextSecrets, plaintextSecretValues } from '#shared/config/plaintext-secrets'
import { cliCommand, curlCommand } from '#shared/workbench/copy'
import { convertImport } from '../config/import'
import { createRedactor } from '../secrets/redactor'
import { substituteRefs } from '../secrets/refs'

/**
 * Credentials typed into a server tried by hand, under random URLs and command lines: a key in
 * a secret-named query parameter, a URL password, `--name value` and `--name=value` arguments
 * among ordinary ones. Once the try registers what it finds, the key is in nothing shown (the
 * tried-server list, a redacted text holding it as written, JSON-escaped or URL-encoded, the
 * copied command and cURL), "Add to registry" writes only references, and resolving them gives
 * back the URL and arguments exactly. Bounded: 300 servers per property.
 */

/** A random-looking key: letters and digits, 12-40 of them, never a word. */
const key = fc
  .stringMatching(/^[A-Za-z0-9]{10,38}$/)
  .map((body) => `k9${body}`)
  .filter((value) => /[0-9].*[0-9]/.test(value))

const secretName = fc.constantFrom('api_key', 'apikey', 'token', 'access_token', 'client_secret')
const plainName = fc.constantFrom('tenant', 'page', 'q', 'lang')
const plainValue = fc.stringMatching(/^[a-z]{1,8}$/)

const triedUrl = fc
  .record({
    password: fc.option(key, { nil: undefined }),
    params: fc.array(
      fc.oneof(
        fc.tuple(secretName, key).map(([name, value]) => ({ name, value, secret: true })),
        fc.tuple(plainName, plainValue).map(([name, value]) => ({ name, value, secret: false })),
      ),
      { minLength: 1, maxLength: 4 },
    ),
    fragment: fc.option(plainValue, { nil: undefined }),
  })
  .filter(({ password, params }) => password !== undefined || params.some((p) => p.secret))
  .map(({ password, params, fragment }) => ({
    url: `https://${password ? `user:${password}@` : ''}rag.example/mcp?${params
      .map(({ name, value }) => `${name}=${value}`)
      .join('&')}${fragment ? `#${fragment}` : ''}`,
    secrets: [
      ...(password ? [password] : []),
      ...params.filter((p) => p.secret).map((p) => p.value),
    ],
  }))

const triedArgs = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constantFrom('--api-key', '--token', '--secret'), key).map(([option, value]) => ({
        words: [option, value],
        secret: value,
      })),
      fc
        .tuple(fc.constantFrom('--api-key', '--token', '--password'), key)
        .map(([option, value]) => ({
          words: [`${option}=${value}`],
          secret: value,
        })),
      fc.constantFrom('--verbose', '--port', '8080', 'server.js').map((word) => ({
        words: [word],
        secret: undefined,
      })),
    ),
    { minLength: 1, maxLength: 5 },
  )
  .filter((parts) => parts.some((part) => part.secret !== undefined))
  .map((parts) => ({
    args: parts.flatMap((part) => part.words),
    secrets: parts.flatMap((part) => (part.secret ? [part.secret] : [])),
  }))

const call = { server: 'try-1', tool: 'echo', arguments: {} }

/** The forms a key takes in output: as written, JSON-escaped, URL-encoded. */
function expectRedacted(secrets: string[], entry: object): void {
  const redactor = createRedactor()
  for (const value of plaintextSecretValues(entry)) redactor.add(value)
  for (const secret of secrets) {
    const text = `a=${secret} b=${JSON.stringify(JSON.stringify(secret))} c=${encodeURIComponent(secret)}`
    expect(redactor.redactText(text)).not.toContain(secret)
  }
}

function added(entry: Record<string, unknown>): {
  fields: Record<string, unknown>
  moved: Map<string, string>
} {
  const converted = convertImport('workbench', JSON.stringify({ tried: entry }))
  const moved = new Map(converted.movedSecrets.map((m) => [m.name, m.value]))
  return { fields: converted.servers[0]!.fields, moved }
}

const resolve = (text: string, moved: Map<string, string>): string =>
  substituteRefs(text, (ref) => (ref.kind === 'keychain' ? moved.get(ref.name) : undefined))

describe('credentials of a tried server', () => {
  it('in its URL: hidden everywhere, moved on add, given back on connect', () => {
    fc.assert(
      fc.property(triedUrl, ({ url, secrets }) => {
        const entry = { transport: 'http', url, headers: {} }
        expectRedacted(secrets, entry)
        const shown = [
          maskPlaintextSecrets({ url }).url,
          cliCommand(call, { kind: 'url', transport: 'http', url, headers: {} }),
          curlCommand(call, { kind: 'url', transport: 'http', url, headers: {} }),
        ].join('\n')
        const { fields, moved } = added(entry)
        for (const secret of secrets) {
          expect(shown).not.toContain(secret)
          expect(JSON.stringify(fields)).not.toContain(secret)
        }
        expect(resolve(fields.url as string, moved)).toBe(url)
      }),
      { numRuns: 300 },
    )
  })

  it('in its arguments: hidden everywhere, moved on add, given back on connect', () => {
    fc.assert(
      fc.property(triedArgs, ({ args, secrets }) => {
        const entry = { transport: 'stdio', command: 'node', args }
        expectRedacted(secrets, entry)
        const shown = [
          maskPlaintextSecrets({ args }).args.join(' '),
          cliCommand(call, { kind: 'stdio', command: 'node', args }),
        ].join('\n')
        const { fields, moved } = added(entry)
        for (const secret of secrets) {
          expect(shown).not.toContain(secret)
          expect(JSON.stringify(fields)).not.toContain(secret)
        }
        expect((fields.args as string[]).map((arg) => resolve(arg, moved))).toEqual(args)
      }),
      { numRuns: 300 },
    )
  })
})
