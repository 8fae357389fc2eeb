import fc from 'fast-check'
import { invokeRequests } from '#shared/ipc/contract'
import type { BrowserHost } from '#main/host/server'

/**
 * Generators of what a hostile local process or web page can send the browser host: raw
 * upgrade requests, WebSocket messages and raw WebSocket frames.
 */

const CHANNELS = Object.keys(invokeRequests)

/** Mostly `good`, sometimes one of `bad`: a request with one thing wrong reaches more code. */
const mostly = <T>(good: fc.Arbitrary<T>, ...bad: fc.Arbitrary<T>[]): fc.Arbitrary<T> =>
  fc.oneof({ weight: 6 * bad.length, arbitrary: good }, ...bad)

/** A request target: the real path with good or bad tokens, broken URLs, random text. */
function target(host: BrowserHost): fc.Arbitrary<string> {
  const token = mostly(
    fc.constant(host.token),
    fc.constant(''),
    fc.constant(`${host.token}x`),
    fc.constant(host.token.slice(1)),
    fc.constant(encodeURIComponent(host.token).replace(/-/g, '%2D')),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
  )
  return mostly(
    token.map((t) => `/ipc?token=${t}`),
    fc.constantFrom('//[', 'http://[', 'http://%zz/', '/%', '/ipc%', '*', '/ipc?token'),
    token.map((t) => `http://%zz/ipc?token=${t}`),
    token.map((t) => `http://127.0.0.1:${host.port}/ipc?token=${t}`),
    fc.tuple(fc.webPath(), fc.string({ maxLength: 30 })).map(([path, query]) => `${path}?${query}`),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.stringMatching(/^[\x21-\x7e]{1,200}$/),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 100 }),
    fc.nat({ max: 40_000 }).map((n) => `/ipc?token=${host.token}&pad=${'a'.repeat(n)}`),
  )
}

const headerValue = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,80}$/),
  fc.string({ unit: 'binary', maxLength: 80 }),
)

/** Upgrade headers, each right, wrong or missing, plus random extra ones. */
function headers(host: BrowserHost): fc.Arbitrary<string[]> {
  const header = (name: string, good: string[]): fc.Arbitrary<string[]> =>
    mostly(
      fc.constantFrom(...good).map((v) => [`${name}: ${v}`]),
      fc.constant([]),
      headerValue.map((v) => [`${name}: ${v}`]),
      fc.constantFrom(...good).map((v) => [`${name}: ${v}`, `${name}: ${v}`]),
    )
  const extra = mostly<string[]>(
    fc.constant([]),
    fc
      .tuple(
        fc.oneof(
          fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,30}$/),
          fc.constantFrom(
            ...['Sec-WebSocket-Protocol', 'Sec-WebSocket-Extensions', 'Content-Length'],
            ...['Transfer-Encoding', 'Expect', 'Cookie', 'Authorization'],
          ),
        ),
        headerValue,
      )
      .map(([name, value]) => [`${name}: ${value}`]),
  )
  return fc
    .tuple(
      header('Host', [`127.0.0.1:${host.port}`]),
      header('Upgrade', ['websocket', 'WebSocket', 'h2c']),
      header('Connection', ['Upgrade', 'keep-alive, Upgrade']),
      header('Sec-WebSocket-Key', ['dGhlIHNhbXBsZSBub25jZQ==']),
      header('Sec-WebSocket-Version', ['13', '8']),
      header('Origin', [host.origin, 'null', `http://localhost:${host.port}`, `${host.origin}/`]),
      extra,
      extra,
    )
    .map((lines) => lines.flat())
}

/** A raw upgrade request (latin1 bytes), sometimes cut short, sometimes pure noise. */
export function upgradeRequests(host: BrowserHost): fc.Arbitrary<Buffer> {
  const method = mostly(
    fc.constant('GET'),
    fc.constantFrom('POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'CONNECT', 'get', 'PRI'),
    fc.stringMatching(/^[A-Z]{1,12}$/),
  )
  const version = mostly(
    fc.constant('HTTP/1.1'),
    fc.constantFrom('HTTP/1.0', 'HTTP/2', 'HTTP/9.9', ''),
  )
  const cut = mostly(fc.constant(undefined), fc.nat())
  const request = fc
    .tuple(method, target(host), version, headers(host), cut)
    .map(([m, t, v, h, at]) => {
      const text = `${m} ${t} ${v}\r\n${h.join('\r\n')}\r\n\r\n`
      return Buffer.from(at === undefined ? text : text.slice(0, at % (text.length + 1)), 'latin1')
    })
  return fc.oneof(
    { weight: 8, arbitrary: request },
    fc.uint8Array({ maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)),
  )
}

const field = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('knowledgeSearch', 'apiKey', 'default', 'jsonl', '{}'),
  fc.boolean(),
  fc.integer({ min: -1, max: 200 }),
)

/** A request shaped like the contract's (its keys, random values), so some reach a handler. */
const plausibleRequest = fc.record(
  Object.fromEntries(
    ['server', 'serverId', 'name', 'value', 'id', 'text', 'searchId', 'batchId', 'query']
      .concat(['enabled', 'refresh', 'limit', 'baseHash', 'format', 'force'])
      .map((key) => [key, field]),
  ),
  { requiredKeys: [] },
)

/** One WebSocket message: a request (known or unknown channel), other JSON, text or binary. */
export type Message = { text: string } | { binary: Uint8Array }

export const messages: fc.Arbitrary<Message> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record(
        {
          id: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
          channel: fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...CHANNELS) },
            fc.constantFrom('__proto__', 'constructor', 'toString', 'fs:read', ''),
            fc.string({ maxLength: 40 }),
            fc.jsonValue({ maxDepth: 2 }),
          ),
          request: fc.oneof(plausibleRequest, fc.jsonValue({ maxDepth: 4 })),
        },
        { requiredKeys: ['id', 'channel'] },
      )
      .map((request) => ({ text: JSON.stringify(request) })),
  },
  fc.jsonValue().map((value) => ({ text: JSON.stringify(value) ?? 'null' })),
  fc.string({ maxLength: 200 }).map((text) => ({ text })),
  fc.string({ unit: 'binary', maxLength: 200 }).map((text) => ({ text })),
  fc.nat({ max: 20_000 }).map((depth) => ({ text: '['.repeat(depth) + ']'.repeat(depth) })),
  fc.nat({ max: 300_000 }).map((size) => ({
    text: JSON.stringify({
      id: 1,
      channel: 'config:validate',
      request: { text: 'x'.repeat(size) },
    }),
  })),
  fc.uint8Array({ maxLength: 500 }).map((binary) => ({ binary })),
)

/** A WebSocket frame as a client could write it, masked or not, its length true or a lie. */
interface Frame {
  fin: boolean
  rsv: number
  opcode: number
  masked: boolean
  payload: Uint8Array
  /** The length the header claims, when it is not the payload's. */
  claimedLength?: number | undefined
}

function encodeFrame(frame: Frame, maskKey: Uint8Array): Buffer {
  const length = frame.claimedLength ?? frame.payload.length
  const head = [(frame.fin ? 0x80 : 0) | ((frame.rsv & 7) << 4) | (frame.opcode & 0x0f)]
  const mask = frame.masked ? 0x80 : 0
  let extended = Buffer.alloc(0)
  if (length < 126) head.push(mask | length)
  else if (length < 65_536) {
    head.push(mask | 126)
    extended = Buffer.alloc(2)
    extended.writeUInt16BE(length)
  } else {
    head.push(mask | 127)
    extended = Buffer.alloc(8)
    extended.writeBigUInt64BE(BigInt(length))
  }
  const payload = Buffer.from(frame.payload)
  if (frame.masked) for (let i = 0; i < payload.length; i += 1) payload[i]! ^= maskKey[i % 4]!
  return Buffer.concat([
    Buffer.from(head),
    extended,
    frame.masked ? Buffer.from(maskKey) : Buffer.alloc(0),
    payload,
  ])
}

const requestText = fc
  .constantFrom(...CHANNELS)
  .map((channel) => new TextEncoder().encode(JSON.stringify({ id: 7, channel })))

const frame: fc.Arbitrary<Frame> = fc.record(
  {
    fin: fc.boolean(),
    rsv: fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, fc.integer({ min: 0, max: 7 })),
    opcode: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(0x0, 0x1, 0x2, 0x8, 0x9, 0xa) },
      fc.integer({ min: 0, max: 15 }),
    ),
    masked: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, fc.constant(false)),
    payload: fc.oneof(fc.uint8Array({ maxLength: 300 }), requestText),
    claimedLength: fc.option(
      fc.oneof(fc.nat({ max: 70_000 }), fc.constantFrom(16 * 1024 * 1024 + 1, 2 ** 40, 2 ** 53)),
      { nil: undefined },
    ),
  },
  { requiredKeys: ['fin', 'rsv', 'opcode', 'masked', 'payload'] },
)

/** A text message split into a first frame and continuation frames, as a browser may send. */
const fragmented: fc.Arbitrary<Frame[]> = fc
  .tuple(requestText, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }))
  .map(([text, cuts]) => {
    const ends = [...new Set([...cuts.map((cut) => cut % text.length), text.length])]
    ends.sort((a, b) => a - b)
    let start = 0
    const parts = ends.map((end) => text.slice(start, (start = end)))
    return parts.map((payload, i) => ({
      fin: i === parts.length - 1,
      rsv: 0,
      opcode: i === 0 ? 0x1 : 0x0,
      masked: true,
      payload,
    }))
  })

/** What one connection writes after its handshake: frames (fragmented or not) or noise. */
export const frameSequences: fc.Arbitrary<Buffer> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.array(
          fc.oneof(
            frame.map((f) => [f]),
            fragmented,
          ),
          { minLength: 1, maxLength: 5 },
        ),
        fc.uint8Array({ minLength: 4, maxLength: 4 }),
      )
      .map(([groups, key]) => Buffer.concat(groups.flat().map((f) => encodeFrame(f, key)))),
  },
  fc.uint8Array({ minLength: 1, maxLength: 1_000 }).map((bytes) => Buffer.from(bytes)),
)
