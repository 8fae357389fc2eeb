import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import type { RegistrySource } from '#shared/model/registry'
import { loadSource, type LoadResult } from './load'
import { tempDir } from '#test/support/files/temp-files'

/**
 * The registry boundary under random input: whatever text (or bytes) rag-mcp.json holds, load
 * + validate end in a registry or a list of located diagnostics, never a throw. Bounded: a few
 * hundred cases per property, a few seconds in all.
 */

const fixtures = join(import.meta.dirname, '../../../test/fixtures/config')
const SEEDS = readdirSync(fixtures).map((name) => readFileSync(join(fixtures, name), 'utf8'))
const { dir, cleanup } = tempDir('rc-fuzz-')
afterAll(cleanup)
const PATH = join(dir, 'rag-mcp.json')
const SOURCE: RegistrySource = { kind: 'file', files: [PATH], writableFile: PATH, label: PATH }
const noEmbedded = () => {
  throw new Error('the embedded registry is not part of this boundary')
}

/** Loads `text` as the draft of the file (or the file on disk when `text` is undefined). */
function load(text?: string): LoadResult {
  return loadSource(SOURCE, noEmbedded, text === undefined ? undefined : { path: PATH, text })
}

/** A registry, or located errors: never both, never neither. */
function expectWellFormed(result: LoadResult, text: string): void {
  const { build } = result
  const errors = build.diagnostics.filter((d) => d.severity === 'error')
  expect(build.ok).toBe(errors.length === 0)
  const lines = text.split('\n').length
  for (const d of build.diagnostics) {
    expect(d.message.length).toBeGreaterThan(0)
    expect(d.line).toBeGreaterThanOrEqual(1)
    expect(d.line).toBeLessThanOrEqual(lines)
    expect(d.column).toBeGreaterThanOrEqual(1)
  }
  if (build.ok) {
    for (const server of build.servers) {
      expect(server.id.length).toBeGreaterThan(0)
      expect(['http', 'sse', 'stdio']).toContain(server.transport)
      expect(server.timeoutMs).toBeGreaterThanOrEqual(1)
      expect(server.timeoutMs).toBeLessThanOrEqual(300_000)
    }
  }
}

const check = (text: string): void => expectWellFormed(load(text), text)
const RUNS = { numRuns: 250 }

/** Characters that upset parsers and positions: surrogates, separators, NUL, BOM, quotes. */
const oddText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom('\uD800', '\uDFFF', '\u2028', '\0', '\uFEFF', '"', '\\', '\r'),
  }),
)

/** One edit of a text: cut a slice, insert something, or repeat a slice. */
type Edit =
  | { kind: 'cut' | 'repeat'; at: number; length: number }
  | { kind: 'insert'; at: number; text: string }

const syntax = fc.constantFrom(
  ...['{', '[', '}', ']', ',', ':', '//', '/*', '*/', '"', 'null', '1e400', '-0', '9'.repeat(400)],
)
const mutation: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constantFrom('cut', 'repeat'), at: fc.nat(), length: fc.nat({ max: 80 }) }),
  fc.record({ kind: fc.constant('insert'), at: fc.nat(), text: fc.oneof(oddText, syntax) }),
)

function mutate(text: string, edits: Edit[]): string {
  let out = text
  for (const edit of edits) {
    const at = out.length === 0 ? 0 : edit.at % (out.length + 1)
    if (edit.kind === 'cut') out = out.slice(0, at) + out.slice(at + edit.length)
    else if (edit.kind === 'insert') out = out.slice(0, at) + edit.text + out.slice(at)
    else out = out.slice(0, at) + out.slice(at, at + edit.length).repeat(2) + out.slice(at)
  }
  return out
}

const number = fc
  .oneof(fc.double(), fc.integer(), fc.constantFrom(2 ** 31, 2 ** 53 + 1, -1, 0, 0.5, 1e308))
  .map((n) => (Number.isFinite(n) ? JSON.stringify(n) : '1e400'))

describe('registry load + validate under random input', () => {
  it('random JSON documents', () => {
    fc.assert(fc.property(fc.json({ maxDepth: 6 }), check), RUNS)
  })

  it('random server maps built from the schema’s own field names', () => {
    const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), number.map(Number), oddText)
    const entry = fc.dictionary(
      fc.constantFrom(
        'transport',
        'type',
        'url',
        'command',
        'args',
        'env',
        'headers',
        'timeoutMs',
        'ui',
        'dataSources',
        'launch',
        'dialect',
        'enabled',
        'groups',
        'cwd',
      ),
      value,
    )
    const registry = fc.dictionary(fc.oneof(fc.string(), oddText), entry, { maxKeys: 5 })
    fc.assert(
      fc.property(registry, fc.constantFrom('', 'mcpServers', 'servers'), (servers, form) =>
        check(JSON.stringify(form ? { [form]: servers } : servers, null, 2)),
      ),
      RUNS,
    )
  })

  it('mutated and truncated valid registries, with comments and odd characters', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SEEDS),
        fc.array(mutation, { maxLength: 6 }),
        fc.nat(),
        (seed, edits, cut) => {
          const mutated = mutate(seed, edits)
          check(mutated)
          check(mutated.slice(0, cut % (mutated.length + 1)))
        },
      ),
      RUNS,
    )
  })

  it('deep nesting of objects and arrays, closed or not', () => {
    const level = fc.constantFrom('{"a":', '[', '{"url":', '{"s":{"args":[')
    const closing = (open: string): string =>
      open === '[' ? ']' : open.endsWith('[') ? ']}}' : '}'
    fc.assert(
      fc.property(
        fc.array(level, { minLength: 1, maxLength: 8 }),
        fc.noBias(fc.integer({ min: 1, max: 5_000 })),
        fc.boolean(),
        (pattern, depth, closed) => {
          const opens = Array.from({ length: depth }, (_, i) => pattern[i % pattern.length]!)
          const tail = closed ? `1${opens.map(closing).reverse().join('')}` : ''
          check(opens.join('') + tail)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('huge, tiny and fractional numbers in every numeric field', () => {
    fc.assert(
      fc.property(number, number, number, (timeout, order, ready) =>
        check(
          `{"s": {"url": "http://x/mcp", "timeoutMs": ${timeout}, "ui": {"order": ${order}},` +
            ` "launch": {"command": "srv", "readyTimeoutMs": ${ready}}}}`,
        ),
      ),
      RUNS,
    )
  })

  it('duplicate keys at every level', () => {
    const key = fc.constantFrom('s', 'url', 'timeoutMs', 'headers', 'X-A', 'mcpServers')
    const member = fc.tuple(
      key,
      fc.constantFrom('"http://x/mcp"', '1000', '{}', '{"X-A": "1", "X-A": "2"}'),
    )
    fc.assert(
      fc.property(
        fc.array(member, { maxLength: 6 }),
        fc.array(key, { maxLength: 4 }),
        (members, ids) => {
          const entry = `{${members.map(([k, v]) => `"${k}": ${v}`).join(', ')}}`
          check(`{${ids.map((id) => `"${id}": ${entry}`).join(',\n')}}`)
        },
      ),
      RUNS,
    )
  })

  it('random bytes read from a real file (invalid UTF-8 included)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        writeFileSync(PATH, bytes)
        const result = load()
        expectWellFormed(result, result.files[0]!.text)
      }),
      { numRuns: 100 },
    )
  })
})
