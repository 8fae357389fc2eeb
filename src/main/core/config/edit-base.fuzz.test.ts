import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseRegistryDocument } from '#shared/config/document'
import type { SaveResult } from '#shared/ipc/registry'
import { backupPath } from '../util/atomic-write'
import { contentHash } from './hash'
import { RegistryStore } from './store'
import { tempDir } from '#test/support/files/temp-files'

/**
 * Every save path under a file caught mid-rewrite: whatever rag-mcp.json holds at the moment
 * of an edit (emptied, cut anywhere, random bytes, a cut followed by noise), a toggle, an import
 * that moves a credential to the keychain, or an editor save from an earlier read either writes
 * nothing (and stores no secret), or writes a file that still defines every server the file on
 * disk defined. Bounded: 150 cases per property, a store started for each.
 */

const ids = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/), {
  minLength: 1,
  maxLength: 6,
})

const registryOf = (servers: string[]): string =>
  `${JSON.stringify(
    Object.fromEntries(servers.map((id) => [id, { url: `http://127.0.0.1:9/${id}` }])),
    null,
    2,
  )}\n`

/** What another program may have left in the file at the moment of the edit. */
type Disk =
  | { kind: 'empty' }
  | { kind: 'blank' }
  | { kind: 'cut'; at: number; noise: string }
  | { kind: 'bytes'; bytes: Uint8Array }

const disk: fc.Arbitrary<Disk> = fc.oneof(
  fc.constantFrom<Disk>({ kind: 'empty' }, { kind: 'blank' }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), noise: fc.string() }),
  fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ maxLength: 200 }) }),
)

function contentOf(valid: string, state: Disk): Buffer {
  if (state.kind === 'empty') return Buffer.alloc(0)
  if (state.kind === 'blank') return Buffer.from(' \n\t\n')
  if (state.kind === 'bytes') return Buffer.from(state.bytes)
  // Cut before the closing brace: without noise, never a whole document.
  const body = valid.trimEnd()
  return Buffer.from(body.slice(0, state.at % body.length) + state.noise)
}

type Operation =
  | { kind: 'toggle'; pick: number; enabled: boolean }
  | { kind: 'import'; keepPlaintext: boolean }
  | { kind: 'editor' }

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('toggle' as const), pick: fc.nat(), enabled: fc.boolean() }),
  fc.record({ kind: fc.constant('import' as const), keepPlaintext: fc.boolean() }),
  fc.constant({ kind: 'editor' as const }),
)

const IMPORTED = JSON.stringify({
  mcpServers: {
    imported: {
      url: 'http://127.0.0.1:9/imported',
      headers: { Authorization: 'Bearer sk-live-0123456789abcdef' },
    },
  },
})

const definedIds = (text: string): string[] =>
  parseRegistryDocument('', text).entries.map((entry) => entry.id)

describe('registry edits from a file another program is rewriting', () => {
  it('never write over a file they cannot read, nor drop a server', async () => {
    await fc.assert(
      fc.asyncProperty(ids, disk, operation, async (servers, state, op) => {
        const { dir, cleanup } = tempDir('rc-edit-fuzz-')
        const file = join(dir, 'rag-mcp.json')
        const valid = registryOf(servers)
        writeFileSync(file, valid)
        const stored: string[] = []
        const store = new RegistryStore({
          lookup: { dataDir: dir, env: {}, configPath: file },
          watch: false,
          untrustedWaitMs: 0,
          secrets: { set: async (server, name) => void stored.push(`${server}/${name}`) },
        })
        try {
          await store.start()
          const before = contentOf(valid, state)
          writeFileSync(file, before)
          const text = readFileSync(file, 'utf8')
          let result: SaveResult
          if (op.kind === 'toggle') {
            const id = servers[op.pick % servers.length]!
            result = await store.setEnabled(id, op.enabled)
          } else if (op.kind === 'import') {
            result = await store.applyImport({
              source: { text: IMPORTED, name: 'fuzz.json' },
              baseHash: contentHash(text),
              keepPlaintext: op.keepPlaintext,
            })
          } else {
            // The editor read the file before the rewrite began, then saved.
            result = await store.save({ text: valid, baseHash: contentHash(valid) })
          }
          const after = readFileSync(file)
          if (result.status !== 'saved') {
            expect(after.equals(before)).toBe(true)
            expect(existsSync(backupPath(file))).toBe(false)
            if (op.kind === 'import' && result.status === 'conflict') expect(stored).toEqual([])
          } else {
            const kept = new Set(definedIds(after.toString('utf8')))
            expect(definedIds(text).filter((id) => !kept.has(id))).toEqual([])
            if (op.kind === 'editor') expect(text).toBe(valid)
          }
          const cut = state.kind === 'cut' && state.noise === ''
          if (op.kind !== 'editor' && (state.kind === 'empty' || state.kind === 'blank' || cut)) {
            expect(result).toMatchObject({ status: 'conflict', untrusted: expect.any(String) })
          }
        } finally {
          await store.dispose()
          rmSync(dir, { recursive: true, force: true })
          cleanup()
        }
      }),
      { numRuns: 150 },
    )
  })
})
