import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import {
  MIN_SECRET_LENGTH,
  REDACTED,
  SENSITIVE_KEYS,
  TOO_DEEP,
  createRedactor,
  mayHoldCredential,
} from './redactor'

const SECRET = 'sk-live-4f9a8b7c6d5e'

function withSecret(): ReturnType<typeof createRedactor> {
  const redactor = createRedactor()
  redactor.add(SECRET)
  return redactor
}

describe('redactor: registered values', () => {
  it('replaces every occurrence of a registered value in a string', () => {
    expect(withSecret().redact(`a ${SECRET} b ${SECRET}`)).toBe(`a ${REDACTED} b ${REDACTED}`)
  })

  it(`ignores values shorter than ${MIN_SECRET_LENGTH} characters`, () => {
    const redactor = createRedactor()
    redactor.add('admin12')
    expect(redactor.size).toBe(0)
    expect(redactor.redact('user admin12')).toBe('user admin12')
  })

  it('also replaces the URL-encoded and JSON-escaped forms of a value', () => {
    const redactor = createRedactor()
    const value = 'p@ss/"word"+123'
    redactor.add(value)
    const text = `?k=${encodeURIComponent(value)} body=${JSON.stringify({ k: value })}`
    expect(redactor.redact(text)).toBe(`?k=${REDACTED} body={"k":"${REDACTED}"}`)
  })

  it('replaces every encoding of a value with quotes and backslashes', () => {
    const redactor = createRedactor()
    const value = 'k3y"with\\back/slash+q'
    redactor.add(value)
    const once = JSON.stringify({ k: value })
    const texts = [
      value,
      once,
      JSON.stringify({ text: once }),
      JSON.stringify(JSON.stringify({ text: once }), null, 2),
      encodeURIComponent(value),
      new URLSearchParams({ k: value }).toString(),
      Buffer.from(value).toString('base64'),
      Buffer.from(value).toString('base64url'),
    ]
    for (const text of texts) {
      const out = redactor.redactValues(`before ${text} after`)
      expect(out, text).toContain(REDACTED)
      for (const form of texts) expect(out, text).not.toContain(form)
    }
  })

  it('blanks a value written in hex, lower or upper case, alone or inside a longer hex text', () => {
    const redactor = withSecret()
    const hex = Buffer.from(SECRET).toString('hex')
    const around = Buffer.from(`user:${SECRET}\n`).toString('hex')
    for (const text of [hex, hex.toUpperCase(), around, `0x${around.toUpperCase()}`]) {
      const out = redactor.redactText(`dump ${text} end`)
      expect(out, text).toContain(REDACTED)
      expect(out.toLowerCase(), text).not.toContain(hex)
    }
  })

  it('blanks a value inside a longer base64 text, whatever its offset', () => {
    const redactor = createRedactor()
    redactor.add(SECRET)
    for (const prefix of ['', 'u:', 'us:', 'user:']) {
      const basic = Buffer.from(`${prefix}${SECRET}`).toString('base64')
      const out = redactor.redactText(`Proxy: ${basic}`)
      // What is left decodes to no more than a few characters of the value.
      const leftover = Buffer.from(out.replace('Proxy: ', '').split(REDACTED).join(''), 'base64')
      expect(leftover.toString('latin1'), prefix).not.toContain(SECRET.slice(0, 4))
      expect(out, prefix).toContain(REDACTED)
    }
  })

  it('blanks values written in the config file everywhere but in the file text itself', () => {
    const redactor = createRedactor()
    redactor.add(SECRET)
    redactor.addFromFile('plain-key-in-file-123')
    const text = `key plain-key-in-file-123 and ${SECRET}`
    expect(redactor.redact(text)).toBe(`key ${REDACTED} and ${REDACTED}`)
    expect(redactor.redactValues(text)).toBe(`key ${REDACTED} and ${REDACTED}`)
    expect(redactor.redactStoredValues(text)).toBe(`key plain-key-in-file-123 and ${REDACTED}`)
  })

  it('replaces the longer of two overlapping values whole', () => {
    const redactor = createRedactor()
    redactor.add('abcdefgh')
    redactor.add('abcdefgh-ijkl')
    expect(redactor.redact('x abcdefgh-ijkl y abcdefgh')).toBe(`x ${REDACTED} y ${REDACTED}`)
  })

  it('redacts nested objects and arrays without touching the input', () => {
    const input = { a: { b: [1, `Bearer-less ${SECRET}`, { c: SECRET }] }, n: null, t: true }
    const snapshot = structuredClone(input)
    const out = withSecret().redact(input)
    expect(out).toEqual({
      a: { b: [1, `Bearer-less ${REDACTED}`, { c: REDACTED }] },
      n: null,
      t: true,
    })
    expect(input).toEqual(snapshot)
  })

  it('returns the very same value when there is nothing to redact', () => {
    const input = { a: [{ b: 'plain text' }], c: 42 }
    expect(withSecret().redact(input)).toBe(input)
    expect(createRedactor().redactValues(input)).toBe(input)
  })

  it('cuts what is nested too deeply to walk or serialise, with or without values', () => {
    let deep: unknown = SECRET
    for (let i = 0; i < 50_000; i += 1) deep = i % 2 ? [deep] : { a: deep }
    for (const redactor of [createRedactor(), withSecret()]) {
      for (const out of [redactor.redact({ deep }), redactor.redactValues({ deep })]) {
        const text = JSON.stringify(out)
        expect(text).toContain(TOO_DEEP)
        expect(text).not.toContain(SECRET)
      }
    }
    const shallow = { a: [{ b: 'plain' }] }
    expect(createRedactor().redactValues(shallow)).toBe(shallow)
  })

  it('keeps cycles as cycles', () => {
    const input: Record<string, unknown> = { s: SECRET }
    input.self = input
    const out = withSecret().redact(input) as Record<string, unknown>
    expect(out.s).toBe(REDACTED)
    expect(out.self).toBe(out)
  })

  it('redacts error messages, stacks and fields, keeping the error class', () => {
    const error = new ConsoleError({
      code: 'unauthorized',
      message: `server s1 rejected ${SECRET}`,
      details: { sent: SECRET },
    })
    const out = withSecret().redact(error)
    expect(out).toBeInstanceOf(ConsoleError)
    expect(out.message).toBe(`server s1 rejected ${REDACTED}`)
    expect(out.stack).not.toContain(SECRET)
    expect(out.toInfo()).toEqual({
      code: 'unauthorized',
      message: `server s1 rejected ${REDACTED}`,
      details: { sent: REDACTED },
    })
    expect(error.message).toContain(SECRET)
  })

  it('redacts what JSON would write for objects with toJSON, such as a URL', () => {
    const out = withSecret().redact({ url: new URL(`https://h.example/x?key=${SECRET}`) })
    expect(out).toEqual({ url: `https://h.example/x?key=${REDACTED}` })
  })

  it('never lets a registered value through in any text (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f]{8,40}$/),
        fc.string(),
        fc.string(),
        (secret, before, after) => {
          const redactor = createRedactor()
          redactor.add(secret)
          return !redactor.redactText(`${before}${secret}${after}${secret}`).includes(secret)
        },
      ),
    )
  })

  it('never lets a registered value through in any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.stringMatching(/^[0-9a-f]{8,40}$/), (value, secret) => {
        const redactor = createRedactor()
        redactor.add(secret)
        const out = redactor.redactValues({ value, list: [value, `x${secret}y`], [secret]: secret })
        return !JSON.stringify(out).includes(`x${secret}y`) && !Object.values(out).includes(secret)
      }),
    )
  })
})

describe('redactor: credential patterns', () => {
  const redactor = createRedactor()

  it('redacts Authorization and API-key header values in free text', () => {
    expect(redactor.redact('sent Authorization: Bearer abc.def-123 to s1')).toBe(
      `sent Authorization: Bearer ${REDACTED} to s1`,
    )
    expect(redactor.redact('X-API-Key: k3y-value, next')).toBe(`X-API-Key: ${REDACTED}, next`)
    expect(redactor.redact('{"api_key":"zz-99"}')).toBe(`{"api_key":"${REDACTED}"}`)
  })

  it('redacts Bearer tokens in free text but not the word after "Bearer" in prose', () => {
    expect(redactor.redact('got Bearer eyJhbGciOi.J9x_1 back')).toBe(`got Bearer ${REDACTED} back`)
    expect(redactor.redact('expects Bearer authentication')).toBe('expects Bearer authentication')
  })

  it('redacts values of sensitive keys, keeping the scheme word', () => {
    expect(
      redactor.redact({
        headers: { Authorization: 'Bearer abc', 'X-Tenant': 'acme' },
        api_key: 'x',
      }),
    ).toEqual({
      headers: { Authorization: `Bearer ${REDACTED}`, 'X-Tenant': 'acme' },
      api_key: REDACTED,
    })
  })

  it('leaves a quoted key with an unquoted value alone, as JSON literals and prose are no keys', () => {
    const line = 'cannot read keychain entry "knowledgeSearch/apiKey": no Secret Service'
    expect(redactor.redact(line)).toBe(line)
    expect(redactor.redact('{"apiKey": null, "password": true}')).toBe(
      '{"apiKey": null, "password": true}',
    )
    expect(redactor.redact('{"apiKey": "k3y-value"}')).toBe(`{"apiKey": "${REDACTED}"}`)
    expect(redactor.redact('"Authorization": Bearer abc.def-123')).toBe(
      `"Authorization": Bearer ${REDACTED}`,
    )
  })

  it('keeps the scheme of a value already redacted: a second pass does not take it for the token', () => {
    const once = redactor.redact({ Authorization: 'Bearer abc.def-123' }).Authorization
    expect(once).toBe(`Bearer ${REDACTED}`)
    expect(redactor.redact(`Authorization=${once} x-user-id=bob`)).toBe(
      `Authorization=Bearer ${REDACTED} x-user-id=bob`,
    )
    expect(redactor.redact(`Authorization: Basic ${REDACTED}`)).toBe(
      `Authorization: Basic ${REDACTED}`,
    )
  })

  it('keeps header values that are only references, in objects and in text', () => {
    const config = { headers: { Authorization: 'Bearer ${keychain:apiKey}' } }
    expect(redactor.redact(config)).toBe(config)
    expect(redactor.redact('Authorization: Bearer ${keychain:apiKey}')).toBe(
      'Authorization: Bearer ${keychain:apiKey}',
    )
  })

  it('leaves patterns alone in redactValues, so file text and signed URLs round-trip', () => {
    const withValue = withSecret()
    const file = `{"s": {"headers": {"X-API-Key": "plain-in-file"}}, "k": "${SECRET}"}`
    expect(withValue.redactValues(file)).toBe(
      `{"s": {"headers": {"X-API-Key": "plain-in-file"}}, "k": "${REDACTED}"}`,
    )
  })
})

describe('redactor: protocol messages (redactJson)', () => {
  const FRAGMENTS = [
    'password',
    'Password',
    'PASSWORD',
    'api_key',
    'X-API-Key',
    'access_token',
    'Client-Secret',
    'cookie',
    'Bearer',
    'basic',
    'Authorization',
    ':',
    '=',
    ' ',
    '\t',
    '\n',
    '\u000b',
    '\u00a0',
    '"',
    "'",
    '\\',
    '{"password": "hunter22"}',
    'abc.def-123XYZ',
    'eyJhbGciOiJIUzI1NiJ9',
    'reset your password at the portal',
    'token',
    'secret',
  ]
  const text = fc
    .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 })), { maxLength: 8 })
    .map((parts) => parts.join(''))
  const key = fc.oneof(
    fc.constantFrom('password', 'API_KEY', 'Set-Cookie', 'bearer', 'id_token', 'text', 'title'),
    fc.string({ maxLength: 6 }),
  )
  const message = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    ),
  })).value

  it('redacts a message exactly as walking it would, from its JSON text (property)', () => {
    const redactor = createRedactor()
    redactor.add(SECRET)
    fc.assert(
      fc.property(message, (value) => {
        expect(redactor.redactJson(value, JSON.stringify(value))).toEqual(redactor.redact(value))
      }),
      { numRuns: 3000 },
    )
  })

  it('finds every sensitive key and header word, in any case, past the quick look for stems', () => {
    const redactor = createRedactor()
    const headerWords = [
      'Authorization',
      'Proxy-Authorization',
      'X-API-Key',
      'api_key',
      'apikey',
      'X-Auth-Token',
      'access_token',
      'refresh-token',
      'id_token',
      'capability-token',
      'oauth_token',
      'user-token',
      'auth_token',
      'client_secret',
      'password',
    ]
    const cases = [
      // As a key: every sensitive key's value is blanked.
      ...[...SENSITIVE_KEYS, ...headerWords].map((word) => ({
        params: { [word]: 'hunter22-value' },
      })),
      // In prose: the header words are.
      ...headerWords.map((word) => ({ text: `${word} = hunter22-value` })),
    ]
    for (const value of cases) {
      for (const json of [JSON.stringify(value), JSON.stringify(value).toUpperCase()]) {
        const parsed = JSON.parse(json) as unknown
        expect(mayHoldCredential(json), json).toBe(true)
        expect(JSON.stringify(redactor.redactJson(parsed, json)), json).not.toMatch(/hunter22/i)
      }
    }
    const bearer = { text: 'curl -H "x: Bearer abcdefgh12345678"' }
    expect(JSON.stringify(redactor.redactJson(bearer, JSON.stringify(bearer)))).not.toContain(
      'abcdefgh12345678',
    )
    // Without a stem there is nothing to look further for.
    expect(mayHoldCredential(JSON.stringify({ title: 'Refund policy', score: 0.5 }))).toBe(false)
  })

  it('does not walk a reply that only mentions a password or a token in prose', () => {
    const redactor = createRedactor()
    const reply = {
      result: {
        content: [{ type: 'text', text: 'Reset your password at the portal; the token expires.' }],
      },
    }
    let walked = 0
    const walk = redactor.redact.bind(redactor)
    redactor.redact = <T>(value: T): T => {
      walked++
      return walk(value)
    }
    expect(redactor.redactJson(reply, JSON.stringify(reply))).toBe(reply)
    expect(walked).toBe(0)
    const leaky = { result: { content: [{ type: 'text', text: 'password: hunter22' }] } }
    expect(JSON.stringify(redactor.redactJson(leaky, JSON.stringify(leaky)))).not.toContain(
      'hunter22',
    )
    expect(walked).toBe(1)
  })
})

describe('redactor: signed links (redactLinks)', () => {
  const redactor = createRedactor()

  it('blanks the signature, token and expiry of every link in a text, keeping the rest', () => {
    const text =
      'the link https://h.example/docs/a?u=carol&exp=1795652116&sig=0123abcd#p2 expired; the server issued https://h.example/b?token=t0k3n-value'
    expect(redactor.redactLinks(text)).toBe(
      `the link https://h.example/docs/a?u=carol&exp=${REDACTED}&sig=${REDACTED}#p2 expired; the server issued https://h.example/b?token=${REDACTED}`,
    )
  })

  it('leaves links without signing parameters, and other text, as they were', () => {
    const value = { url: 'https://h.example/docs/a?page=2&q=vpn', note: 'sig=abc is prose' }
    expect(redactor.redactLinks(value)).toBe(value)
  })

  it('keeps applying the credential patterns', () => {
    expect(redactor.redactLinks({ authorization: 'Bearer abcdefgh12345' })).toEqual({
      authorization: `Bearer ${REDACTED}`,
    })
  })

  it('leaves signed links to redactValues and redact, whose output must round-trip', () => {
    const url = 'https://h.example/docs/a?sig=0123abcd'
    expect(redactor.redactValues(url)).toBe(url)
    expect(redactor.redact(url)).toBe(url)
  })
})
