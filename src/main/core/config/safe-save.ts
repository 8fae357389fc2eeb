import type { SaveResult } from '#shared/ipc/registry'
import type { RegistrySource } from '#shared/model/registry'
import { replaceGuarded } from '../util/guarded-replace'
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
 * `conflict` with both texts, unless `force`), and the write is atomic, through a symlink to its
 * target, with the previous content kept as `.bak`. A write by someone else that races the save
 * is a `conflict` too, even with `force`: see {@link replaceGuarded}.
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
  const outcome = await replaceGuarded(path, request.text, disk)
  if (outcome.status === 'raced') {
    return {
      status: 'conflict',
      path,
      diskExists: outcome.exists,
      diskText: outcome.text,
      diskHash: contentHash(outcome.text),
      proposedText: request.text,
      ...(outcome.kept ? { keptAt: outcome.kept } : {}),
    }
  }
  return {
    status: 'saved',
    path,
    hash: contentHash(request.text),
    ...(outcome.backup ? { backup: outcome.backup } : {}),
  }
}
