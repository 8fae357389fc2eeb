import { readFileSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { IConfiguration } from 'dependency-cruiser'
import { describe, expect, it } from 'vitest'

/**
 * docs/architecture.md's layer diagram says which folder may import which. It must say what
 * `.dependency-cruiser.cjs` enforces, for every folder that exists: a rule or a folder that
 * changes without the diagram fails here.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const config = createRequire(import.meta.url)(
  join(ROOT, '.dependency-cruiser.cjs'),
) as IConfiguration
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')

interface Layer {
  id: string
  /** Folders (ending in `/`) and files the layer holds. */
  paths: string[]
}

/** The boxes and arrows of the doc's mermaid flowchart. */
function diagram(markdown: string): { layers: Layer[]; edges: [string, string][] } {
  const block = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1]
  if (block === undefined) throw new Error('docs/architecture.md has no mermaid diagram')
  const layers: Layer[] = []
  const edges: [string, string][] = []
  for (const line of block.split('\n').map((l) => l.trim())) {
    const node = /^(\w+)\["([^"]+)"\]$/.exec(line)
    if (node) {
      layers.push({ id: node[1]!, paths: node[2]!.split('<br/>').slice(1) })
      continue
    }
    if (!line.includes('-->')) continue
    const ids = line.split('-->').map((id) => id.trim())
    for (let i = 1; i < ids.length; i++) edges.push([ids[i - 1]!, ids[i]!])
  }
  return { layers, edges }
}

const { layers, edges } = diagram(DOC)

/** The layer a path belongs to: the one with the longest path that holds it. */
function layerOf(path: string): { layer: Layer; prefix: string } | undefined {
  let best: { layer: Layer; prefix: string } | undefined
  for (const layer of layers) {
    for (const prefix of layer.paths) {
      const holds = prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix
      if (holds && prefix.length > (best?.prefix.length ?? -1)) best = { layer, prefix }
    }
  }
  return best
}

/** Whether the arrows lead from `from` to `to`. */
function reaches(from: string, to: string): boolean {
  const seen = new Set([from])
  const queue = [from]
  while (queue.length > 0) {
    const at = queue.shift()!
    for (const [a, b] of edges) {
      if (a !== at || seen.has(b)) continue
      if (b === to) return true
      seen.add(b)
      queue.push(b)
    }
  }
  return false
}

/** The part of a rule's `from` / `to` this test reads. */
interface PathRule {
  path?: string | string[]
  pathNot?: string | string[]
}

const matches = (pattern: string | string[] | undefined, path: string): boolean =>
  pattern !== undefined && [pattern].flat().some((p) => new RegExp(p).test(path))

/** The rules that forbid a (non-test) module at `from` importing one at `to`. */
function forbidding(from: string, to: string): string[] {
  return (config.forbidden ?? [])
    .filter((rule) => {
      // Every rule of ours is a from/to rule; `no-cycles` has no `to.path` and is left out.
      const { from: source, to: target } = rule as unknown as Record<'from' | 'to', PathRule>
      if (!matches(source.path ?? '', from) || matches(source.pathNot, from)) return false
      return target.path !== undefined && matches(target.path, to) && !matches(target.pathNot, to)
    })
    .map((rule) => rule.name ?? '?')
}

/** A module the layer path stands for: the file itself, or one inside the folder. */
const sample = (path: string): string => (path.endsWith('/') ? `${path}module.ts` : path)

/** What a folder of the tree holds that is not a test: its folders and source files. */
function entries(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((e) => e.isDirectory() || (/\.(ts|tsx|js)$/.test(e.name) && !/\.test\./.test(e.name)))
    .map((e) => `${folder}${e.name}${e.isDirectory() ? '/' : ''}`)
}

describe('docs/architecture.md, its layer diagram', () => {
  it('has the layers and arrows the text describes', () => {
    expect(layers.map((l) => l.id)).toEqual(
      expect.arrayContaining(['hosts', 'composition', 'services', 'connection', 'base', 'shared']),
    )
    expect(reaches('hosts', 'base')).toBe(true)
    expect(reaches('base', 'services')).toBe(false)
  })

  it('names only paths that exist, folders ending in /', () => {
    const wrong = layers
      .flatMap((l) => l.paths)
      .filter((path) => {
        const stat = statSync(join(ROOT, path), { throwIfNoEntry: false })
        return !stat || stat.isDirectory() !== path.endsWith('/')
      })
    expect(wrong).toEqual([])
  })

  it('places every folder of src, and every folder and module of the core, in a layer', () => {
    const unplaced = entries('src/')
      .filter((path) => path !== 'src/test/')
      .concat(
        entries('src/main/').filter((path) => path !== 'src/main/core/'),
        entries('src/main/core/'),
      )
      .filter((path) => {
        const placed = layerOf(sample(path))
        // A part of the core must be named by a path of the core, not fall to the hosts' `src/main/`.
        return (
          !placed ||
          (path.startsWith('src/main/core/') && !placed.prefix.startsWith('src/main/core/'))
        )
      })
    expect(unplaced).toEqual([])
  })

  it('draws an arrow exactly where .dependency-cruiser.cjs lets a layer import another', () => {
    const wrong: string[] = []
    for (const from of layers) {
      for (const to of layers) {
        for (const a of from.paths) {
          for (const b of to.paths) {
            if (a === b) continue
            const rules = forbidding(sample(a), sample(b))
            const drawn = from === to || reaches(from.id, to.id)
            if (drawn && rules.length > 0) {
              wrong.push(`${a} → ${b}: the diagram allows it, ${rules.join(', ')} forbids it`)
            }
            if (!drawn && rules.length === 0) {
              wrong.push(`${a} → ${b}: the diagram forbids it, no rule does`)
            }
          }
        }
      }
    }
    expect(wrong).toEqual([])
  })

  it('lists every rule of .dependency-cruiser.cjs, and no other', () => {
    const layersSection = DOC.slice(
      DOC.indexOf('## Layers'),
      DOC.indexOf('\n## ', DOC.indexOf('## Layers') + 1),
    )
    const listed = [...layersSection.matchAll(/^\| `([a-z-]+)` +\|/gm)].map((m) => m[1])
    const rules = (config.forbidden ?? []).map((rule) => rule.name)
    expect(listed.sort()).toEqual(rules.sort())
  })
})

/** Every folder under `folder` (repository paths ending in `/`), but src/test/'s and the corpus. */
function foldersUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `${folder}${e.name}/`)
    .filter((path) => path !== 'src/test/' && path !== 'src/demo/corpus/')
    .flatMap((path) => [path, ...foldersUnder(path)])
}

/** Every file under `folder`, as a path relative to it. */
function filesUnder(folder: string, prefix = ''): string[] {
  return readdirSync(join(ROOT, folder, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(folder, `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  )
}

describe('docs/architecture.md and docs/testing.md, where test helpers live', () => {
  it('keeps every test helper and fixture in src/test/, none beside the code', () => {
    const stray = foldersUnder('src/').flatMap((folder) => [
      ...(/\/(testing|fixtures)\/$/.test(folder) ? [folder] : []),
      ...entries(folder).filter((path) => /\/(testing|test-support)\.[cm]?[jt]sx?$/.test(path)),
    ])
    expect(stray).toEqual([])
  })

  it("lists every helper module of src/test/support/ in testing.md's index", () => {
    const doc = readFileSync(join(ROOT, 'docs/testing.md'), 'utf8')
    const start = doc.indexOf('## Where tests and their helpers live')
    const section = doc.slice(start, doc.indexOf('\n## ', start + 1))
    // A row names a module by its path under src/test/ (`support/pool/helpers.ts`), or by its
    // name in a row that names another module of its folder (`support/core/live.ts`, `live-core.ts`).
    const rows = section.split('\n').filter((line) => line.startsWith('| `'))
    const missing = filesUnder('src/test/support/').filter((file) => {
      const folder = `support/${dirname(file)}/`
      const name = file.slice(folder.length - 'support/'.length)
      return !rows.some(
        (row) =>
          row.includes(`\`support/${file}\``) ||
          (row.includes(`\`${folder}`) && row.includes(`\`${name}\``)),
      )
    })
    expect(missing).toEqual([])
  })
})
