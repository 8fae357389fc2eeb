import type { SaveResult } from '../../../shared/ipc/registry'
import type { RegistrySource } from '../../../shared/model/registry'
import { backupPath, writeFileAtomic } from '../util/atomic-write'
import type { EmbeddedRegistry } from './embedded'
import { contentHash } from './hash'
import { loadSource, snapshot } from './load'

/** A proposed new text for the writable registry file. */
export interface SaveRequest {
  text: string
  /** Content hash of the file as the caller read it (of `''` when it did not exist). */
  baseHash: string
  /** Overwrite even when the file changed on disk since `baseHash`. */
  force?: boolean | undefined
}

/** A save that was written; the caller applies it and reports the reload. */
export type WrittenSave = Omit<Extract<SaveResult, { status: 'saved' }>, 'reload'>

/**
 * Writes the registry file `path` of `source` safely: the text must validate in place (with
 * the files it is layered over), the file must still be as the caller read it (else a
 * `conflict` with both texts, unless `force`), the previous content is kept as `.bak`, and the
 * write is atomic.
 */
export async function saveRegistryFile(
  source: RegistrySource,
  path: string,
  request: SaveRequest,
  embedded: () => EmbeddedRegistry,
): Promise<Exclude<SaveResult, { status: 'saved' }> | WrittenSave> {
  const check = loadSource(source, embedded, { path, text: request.text })
  if (!check.build.ok) return { status: 'invalid', path, diagnostics: check.build.diagnostics }
  const disk = snapshot(path)
  if (disk.hash !== request.baseHash && !request.force) {
    return {
      status: 'conflict',
      path,
      diskExists: disk.exists,
      diskText: disk.text,
      diskHash: disk.hash,
      proposedText: request.text,
    }
  }
  await writeFileAtomic(path, request.text, { backup: true })
  return {
    status: 'saved',
    path,
    hash: contentHash(request.text),
    ...(disk.exists ? { backup: backupPath(path) } : {}),
  }
}
