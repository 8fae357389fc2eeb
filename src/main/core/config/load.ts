import { readFileSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { parseRegistryDocument, type RegistryDocument } from '../../../shared/config/document'
import { buildRegistry, type BuildResult } from '../../../shared/config/validate'
import type { Diagnostic, RegistrySource } from '../../../shared/model/registry'
import type { EmbeddedRegistry } from './embedded'
import { configHash, contentHash } from './hash'
import type { Registry } from './types'

/** A registry file as read for one load: its text and content hash (`''` when absent). */
export interface FileSnapshot {
  path: string
  exists: boolean
  text: string
  hash: string
}

/** Everything one load produced: what was read, and the validated servers or the problems. */
export interface LoadResult {
  source: RegistrySource
  files: FileSnapshot[]
  build: BuildResult
}

/** Text proposed for one file, validated in place of what is on disk. */
export interface Draft {
  path: string
  text: string
}

/** Reads a file's text; absent files read as `''` with `exists: false`. */
export function snapshot(path: string): FileSnapshot {
  try {
    const text = readFileSync(path, 'utf8')
    return { path, exists: true, text, hash: contentHash(text) }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    return { path, exists: false, text: '', hash: contentHash('') }
  }
}

/** Relative working directories are relative to the file's folder, which is also the default. */
export function resolveCwd(origin: string, cwd: string | undefined): string | undefined {
  if (!isAbsolute(origin)) return cwd
  if (cwd === undefined) return dirname(origin)
  return cwd.includes('${') || isAbsolute(cwd) ? cwd : resolve(dirname(origin), cwd)
}

function missingFile(path: string): Diagnostic {
  return {
    severity: 'error',
    file: path,
    path: '',
    line: 1,
    column: 1,
    rule: 'file_not_found',
    message: `${path}: file not found: create it, or point --config / RAG_MCP_CONFIG at an existing file`,
  }
}

/**
 * The files a source reads, lowest precedence first, with `draft` standing in for its file
 * (a draft for a layered file that does not exist yet joins the layers).
 */
function layerPaths(source: RegistrySource, draft?: Draft): string[] {
  if (!draft) return source.files
  if (source.kind === 'embedded' || source.files.includes(draft.path)) {
    return source.kind === 'embedded' ? [draft.path] : source.files
  }
  return [...source.files, draft.path]
}

/** Reads, validates and normalises the registry of a source. Never throws for bad content. */
export function loadSource(
  source: RegistrySource,
  embedded: () => EmbeddedRegistry,
  draft?: Draft,
): LoadResult {
  if (source.kind === 'embedded' && !draft) {
    const registry = embedded()
    const doc = parseRegistryDocument(registry.file, registry.text)
    const build = buildRegistry([doc], { resolveCwd })
    build.diagnostics.unshift(...registry.diagnostics)
    return { source, files: [], build }
  }
  const files = layerPaths(source, draft).map((path) =>
    draft && path === draft.path
      ? { path, exists: true, text: draft.text, hash: contentHash(draft.text) }
      : snapshot(path),
  )
  const docs: RegistryDocument[] = []
  const missing: Diagnostic[] = []
  for (const file of files) {
    if (file.exists) docs.push(parseRegistryDocument(file.path, file.text))
    // A layered file may vanish between lookup and read; only an explicit file must exist.
    else if (source.kind === 'file') missing.push(missingFile(file.path))
  }
  const build = buildRegistry(docs, { resolveCwd })
  if (missing.length > 0) {
    build.diagnostics.unshift(...missing)
    build.ok = false
  }
  return { source, files, build }
}

/** The registry a successful load describes. */
export function toRegistry(result: LoadResult): Registry {
  return {
    source: result.source,
    servers: result.build.servers,
    hashes: Object.fromEntries(result.build.servers.map((s) => [s.id, configHash(s)])),
    warnings: result.build.diagnostics.filter((d) => d.severity === 'warning'),
  }
}
