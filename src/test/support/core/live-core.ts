import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCore, type Core, type CoreOptions } from '#core/core'

/**
 * A whole console for tests and benchmarks (no test-runner imports here, so a benchmark bundle
 * can use it too).
 */

export interface LiveCore {
  core: Core
  dir: string
  configPath: string
  /** Rewrites rag-mcp.json and waits until the registry applied it. */
  rewrite(registry: object): Promise<void>
  /** Every line of the audit files, parsed. */
  auditLines(): Record<string, unknown>[]
  /** The raw text of every file under the data folder's audit directory. */
  auditText(): string
  close(): Promise<void>
}

/**
 * A whole console on a temporary data folder and a temporary rag-mcp.json, connected to its
 * servers (`connect: true`), no file watching, no periodic probes.
 */
export async function startCore(
  registry: object,
  options: Partial<CoreOptions> & { dir?: string } = {},
): Promise<LiveCore> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'rc-services-'))
  const configPath = join(dir, 'rag-mcp.json')
  writeFileSync(configPath, `${JSON.stringify(registry, null, 2)}\n`)
  const core = await createCore({
    configPath,
    dataDir: join(dir, 'data'),
    env: {},
    watch: false,
    connect: true,
    pool: { probeIntervalMs: 0 },
    ...options,
  })
  const auditDir = join(dir, 'data', 'audit')
  const auditText = (): string => {
    // The file as a reader would see it: lines held back until the end of the tick included.
    core.services.audit.flush()
    let files: string[]
    try {
      files = readdirSync(auditDir)
    } catch {
      return ''
    }
    return files.map((file) => readFileSync(join(auditDir, file), 'utf8')).join('')
  }
  return {
    core,
    dir,
    configPath,
    async rewrite(next) {
      writeFileSync(configPath, `${JSON.stringify(next, null, 2)}\n`)
      await core.registry.reloadNow()
    },
    auditLines: () =>
      auditText()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    auditText,
    async close() {
      await core.dispose()
      if (!options.dir) rmSync(dir, { recursive: true, force: true })
    },
  }
}
