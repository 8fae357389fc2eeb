import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { diagnosticAt, parseRegistryDocument, type RegistryDocument } from '#shared/config/document'
import { buildRegistry, type BuildResult } from '#shared/config/validate'
import type { Diagnostic, RegistrySource } from '#shared/model/registry'
import { decodeLossless, undecodedBytes } from '../util/lossless-utf8'
import { appPlaceholders, type EmbeddedRegistry } from './embedded'
import { configHash, contentHash } from './hash'
import type { Registry } from './types'

/** A registry file larger than this is refused unread. */
export const MAX_REGISTRY_BYTES = 5 * 1024 * 1024

/** A registry file as read for one load: its text and content hash (`''` when absent). */
export interface FileSnapshot {
  path: string
  exists: boolean
  text: string
  hash: string
  /** Why what is at `path` cannot be read as a registry (its text is then `''`). */
  problem?: Diagnostic
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

/**
 * Reads a file's text; absent files read as `''` with `exists: false`. Anything that is not a
 * regular file of at most {@link MAX_REGISTRY_BYTES} (a folder, a FIFO, a device, a symlink
 * loop) comes back with a `problem` instead of blocking or throwing; `advice` ends the
 * message of a path that is not a file.
 */
export function snapshot(
  path: string,
  advice = 'point --config / RAG_MCP_CONFIG at a rag-mcp.json file',
): FileSnapshot {
  let fd: number
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (regular files ignore the flag).
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { path, exists: false, text: '', hash: contentHash('') }
    }
    return unusable(path, 'unreadable', `cannot be opened: ${openFailure(error)}`)
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) {
      return unusable(path, 'not_a_file', `is ${kindOf(stats)}, not a file: ${advice}`)
    }
    const text = readAtMost(fd, MAX_REGISTRY_BYTES)
    if (text === undefined) {
      const size = Math.max(stats.size, MAX_REGISTRY_BYTES + 1)
      return unusable(
        path,
        'file_too_large',
        `is ${(size / 1024 / 1024).toFixed(1)} MB: a registry may be at most 5 MB; is this the right file?`,
      )
    }
    return { path, exists: true, text, hash: contentHash(text) }
  } catch (error) {
    return unusable(path, 'unreadable', `cannot be read: ${openFailure(error)}`)
  } finally {
    closeSync(fd)
  }
}

/**
 * The file's text, or undefined when it holds more than `limit` bytes (it may still grow).
 * Bytes that are not UTF-8 are kept (see {@link decodeLossless}), so a save writes them back.
 */
function readAtMost(fd: number, limit: number): string | undefined {
  const chunks: Buffer[] = []
  let total = 0
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, limit + 1 - total))
    const read = readSync(fd, chunk, 0, chunk.length, null)
    if (read === 0) return decodeLossless(Buffer.concat(chunks, total))
    chunks.push(chunk.subarray(0, read))
    total += read
    if (total > limit) return undefined
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a named pipe (FIFO)'
  if (stats.isSocket()) return 'a socket'
  return 'a device'
}

function openFailure(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  if (code === 'ELOOP') return 'a symbolic link loop; point at the file itself'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  return code ?? message
}

/** Something is at `path` but it cannot be a registry: one located error, and no text. */
function unusable(path: string, rule: string, text: string): FileSnapshot {
  const message = `${path} ${text}`
  return {
    path,
    exists: true,
    text: '',
    // The problem is part of the hash, so a watch reload that finds it again does nothing.
    hash: contentHash(`\0${message}`),
    problem: { severity: 'error', file: path, path: '', line: 1, column: 1, rule, message },
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
    const build = buildRegistry([doc], {
      resolveCwd,
      expandApp: registry.expand ?? appPlaceholders(),
    })
    build.diagnostics.unshift(...registry.diagnostics)
    return { source, files: [], build }
  }
  const files = layerPaths(source, draft).map((path) =>
    draft && path === draft.path
      ? { path, exists: true, text: draft.text, hash: contentHash(draft.text) }
      : snapshot(path),
  )
  const docs: RegistryDocument[] = []
  const unread: Diagnostic[] = []
  for (const file of files) {
    if (file.problem) unread.push(file.problem)
    else if (file.exists) docs.push(parseRegistryDocument(file.path, file.text))
    // A layered file may vanish between lookup and read; only an explicit file must exist.
    else if (source.kind === 'file') unread.push(missingFile(file.path))
  }
  // A registry saved from the embedded one keeps its `${app:…}` placeholders.
  const placeholders = files.some((file) => file.text.includes('${app:'))
  const build = buildRegistry(docs, {
    resolveCwd,
    ...(placeholders ? { expandApp: embedded().expand ?? appPlaceholders() } : {}),
  })
  for (const doc of docs) {
    const warning = notUtf8Warning(doc)
    if (warning) build.diagnostics.push(warning)
  }
  if (unread.length > 0) {
    build.diagnostics.unshift(...unread)
    build.ok = false
  }
  return { source, files, build }
}

/** Where a file holds bytes that are not UTF-8: they show as U+FFFD, and edits keep them. */
function notUtf8Warning(doc: RegistryDocument): Diagnostic | undefined {
  const found = undecodedBytes(doc.text)
  if (!found) return undefined
  const byte = `0x${found.byte.toString(16).toUpperCase().padStart(2, '0')}`
  const count = found.count === 1 ? 'the only one' : `${found.count} bytes in all`
  return diagnosticAt(
    doc,
    found.index,
    [],
    'warning',
    'invalid_utf8',
    `bytes that are not UTF-8 (${byte}, ${count}): shown as \uFFFD, and kept as they are when the console edits the file; save it as UTF-8 to fix this`,
  )
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
