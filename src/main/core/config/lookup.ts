import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { RegistrySource } from '#shared/model/registry'

export interface LookupOptions {
  /** `--config FILE`; wins over everything. */
  configPath?: string
  env?: NodeJS.ProcessEnv
  dataDir: string
}

export const EMBEDDED_LABEL = 'demo registry (embedded default)'

/** The layered files inside the app's data folder, lowest precedence first. */
export function layeredPaths(dataDir: string): { defaults: string; overrides: string } {
  return {
    defaults: join(dataDir, 'config', 'defaults', 'rag-mcp.json'),
    overrides: join(dataDir, 'config', 'overrides', 'rag-mcp.json'),
  }
}

/**
 * Decides which registry file(s) the console runs on: `--config` / `RAG_MCP_CONFIG`; else
 * `config/overrides/rag-mcp.json` over `config/defaults/rag-mcp.json` in the data folder; else
 * the embedded demo registry.
 */
export function resolveRegistrySource(options: LookupOptions): RegistrySource {
  const explicit = options.configPath ?? options.env?.RAG_MCP_CONFIG
  if (explicit) {
    const file = resolve(explicit)
    return { kind: 'file', files: [file], writableFile: file, label: file }
  }
  const { defaults, overrides } = layeredPaths(options.dataDir)
  const files = [defaults, overrides].filter((file) => existsSync(file))
  if (files.length > 0) {
    return {
      kind: 'layered',
      files,
      writableFile: overrides,
      label: files.length === 1 ? files[0]! : `${overrides} over ${defaults}`,
    }
  }
  return { kind: 'embedded', files: [], label: EMBEDDED_LABEL }
}
