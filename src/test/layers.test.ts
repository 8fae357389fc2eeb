import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The rules `npm run lint` checks the tree with, run on a small tree that breaks each of them.
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration

const tree: Record<string, string> = {
  'src/shared/errors.ts': 'export const e = 1\n',
  'src/shared/up.ts': "export { ok } from '../renderer/src/ok'\n",
  'src/main/core/core.ts': 'export const c = 1\n',
  'src/main/core/api/handlers.ts': 'export const h = 1\n',
  'src/main/core/pool/pool.ts':
    "export { c } from '../core'\nexport { h } from '../api/handlers'\nexport const p = 1\n",
  'src/main/core/pool/a.ts': "import { b } from './b'\nexport const a = () => b\n",
  'src/main/core/pool/b.ts': "import { a } from './a'\nexport const b = () => a\n",
  'src/main/core/services/search.ts': "export { c } from '../core'\n",
  'src/main/core/services/search.test.ts': "export { c } from '../core'\n",
  'src/main/core/reach.ts':
    "export { m } from '../cli/main'\nexport { d } from '../../demo/server'\n",
  'src/main/core/boot.test.ts': "export { b } from '../demo-bootstrap/bootstrap'\n",
  'src/main/cli/main.ts': "export { d } from '../../demo/server'\nexport const m = 1\n",
  'src/main/core/log.ts': "export { p } from './pool/pool'\nexport { e } from './util/e'\n",
  'src/main/core/util/e.ts': "export { e } from '../../../shared/errors'\n",
  'src/main/core/secrets/s.ts': "export { r } from '../dialects/r'\n",
  'src/main/core/dialects/r.ts': "export { p } from '../pool/pool'\nexport const r = 1\n",
  'src/main/demo-bootstrap/bootstrap.ts': 'export const b = 1\n',
  'src/main/host/page.ts': "export { ok } from '../../renderer/src/ok'\n",
  'src/preload/index.ts':
    "export { c } from '../main/core/core'\nexport { e } from '../shared/errors'\n",
  'src/renderer/src/ok.ts': "export { e as ok } from '../../shared/errors'\n",
  'src/renderer/src/main.ts': "export { c } from '../../main/core/core'\n",
  'src/demo/server.ts': 'export const d = 1\n',
  'src/demo/shares.ts': "export { e } from '../shared/errors'\n",
  'src/test/support/pool/helpers.ts':
    "export { c } from '../../../main/core/core'\nexport { p } from '../../../main/core/pool/pool'\n",
  'src/test/support/host/live-host.ts': "export { m } from '../../../main/cli/main'\n",
  'src/test/support/model/hits.ts': "export { e } from '../../../shared/errors'\n",
  'src/main/core/pool/pool.test.ts':
    "export { p } from '../../../test/support/pool/helpers'\n" +
    "export { m } from '../../../test/support/host/live-host'\n",
  'src/main/core/services/helped.ts': "export { p } from '../../../test/support/pool/helpers'\n",
  'src/renderer/src/model.ts': "export { e } from '../../test/support/model/hits'\n",
  'src/renderer/src/model.test.ts': "export { e } from '../../test/support/model/hits'\n",
}

let root: string
let result: ICruiseResult

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'layers-'))
  for (const [file, text] of Object.entries(tree)) {
    await mkdir(dirname(join(root, file)), { recursive: true })
    await writeFile(join(root, file), text)
  }
  const { output } = await cruise(['src'], {
    baseDir: root,
    validate: true,
    ruleSet: { forbidden: config.forbidden ?? [] },
    includeOnly: config.options?.includeOnly ?? '',
    tsPreCompilationDeps: true,
    enhancedResolveOptions: config.options?.enhancedResolveOptions ?? {},
  })
  result = typeof output === 'string' ? (JSON.parse(output) as ICruiseResult) : output
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

/** Every rule a file breaks, with the file it imports. */
function broken(from: string): string[] {
  return result.summary.violations
    .filter((violation) => violation.from === from)
    .map((violation) => `${violation.rule.name} ${violation.to}`)
    .sort()
}

describe('layers (dependency-cruiser)', () => {
  it('keeps the renderer away from the main process, and lets it use src/shared', () => {
    expect(broken('src/renderer/src/main.ts')).toEqual([
      'renderer-not-to-main src/main/core/core.ts',
    ])
    expect(broken('src/renderer/src/ok.ts')).toEqual([])
  })

  it('lets the preload import only src/shared', () => {
    expect(broken('src/preload/index.ts')).toEqual(['preload-only-contract src/main/core/core.ts'])
  })

  it('keeps src/shared below every process, and the main process away from the renderer', () => {
    expect(broken('src/shared/up.ts')).toEqual(['shared-not-to-processes src/renderer/src/ok.ts'])
    expect(broken('src/main/host/page.ts')).toEqual(['main-not-to-renderer src/renderer/src/ok.ts'])
  })

  it('keeps the hosts out of the core, and the demo servers out of the console', () => {
    expect(broken('src/main/core/reach.ts')).toEqual([
      'console-not-to-demo src/demo/server.ts',
      'core-not-to-hosts src/main/cli/main.ts',
    ])
    expect(broken('src/main/cli/main.ts')).toEqual(['console-not-to-demo src/demo/server.ts'])
    expect(broken('src/demo/shares.ts')).toEqual(['demo-stands-alone src/shared/errors.ts'])
  })

  it('keeps the demo bootstrap out of the core, its tests included', () => {
    expect(broken('src/main/core/boot.test.ts')).toEqual([
      'core-not-to-demo-bootstrap src/main/demo-bootstrap/bootstrap.ts',
      'core-not-to-hosts src/main/demo-bootstrap/bootstrap.ts',
    ])
  })

  it("keeps the core's base below the connection layer, which may use it", () => {
    expect(broken('src/main/core/log.ts')).toEqual([
      'base-core-not-to-upper src/main/core/pool/pool.ts',
    ])
    expect(broken('src/main/core/secrets/s.ts')).toEqual([
      'base-core-not-to-upper src/main/core/dialects/r.ts',
    ])
    expect(broken('src/main/core/util/e.ts')).toEqual([])
    expect(broken('src/main/core/dialects/r.ts')).toEqual([])
  })

  it('keeps the lower core and the services below the composition; tests sit above', () => {
    expect(broken('src/main/core/pool/pool.ts')).toEqual([
      'lower-core-not-to-upper src/main/core/api/handlers.ts',
      'lower-core-not-to-upper src/main/core/core.ts',
    ])
    expect(broken('src/main/core/services/search.ts')).toEqual([
      'services-not-to-composition src/main/core/core.ts',
    ])
    expect(broken('src/main/core/services/search.test.ts')).toEqual([])
  })

  it("keeps the test helpers out of the console, and the hosts' helpers out of the core's tests", () => {
    expect(broken('src/main/core/services/helped.ts')).toEqual([
      'console-not-to-tests src/test/support/pool/helpers.ts',
    ])
    expect(broken('src/renderer/src/model.ts')).toEqual([
      'console-not-to-tests src/test/support/model/hits.ts',
    ])
    expect(broken('src/renderer/src/model.test.ts')).toEqual([])
    expect(broken('src/test/support/pool/helpers.ts')).toEqual([])
    expect(broken('src/test/support/host/live-host.ts')).toEqual([])
    expect(broken('src/main/core/pool/pool.test.ts')).toEqual([
      'core-not-to-hosts src/test/support/host/live-host.ts',
    ])
  })

  it('finds import circles', () => {
    const circles = result.summary.violations
      .filter((violation) => violation.rule.name === 'no-cycles')
      .map((violation) => [violation.from, violation.to].sort())
    expect(circles).toEqual([['src/main/core/pool/a.ts', 'src/main/core/pool/b.ts']])
  })
})
