import { formatPath, parseRegistryDocument } from '#shared/config/document'
import { maskPlaintextSecrets } from '#shared/config/plaintext-secrets'
import type { ImportPreview, ImportedServer, RawConfig } from '#shared/ipc/registry'
import type { Diagnostic } from '#shared/model/registry'
import { configHash } from './hash'
import {
  convertImport,
  readImportFile,
  withoutValues,
  type ConvertedServer,
  type MovedSecret,
} from './import'
import { locateInImport } from './import-locate'
import type { LoadResult } from './load'
import { definesServer, editEntries, type EntryEdit } from './text-edit'
import type { Registry } from './types'

/** A file to import: by path, or its text (with a display name). */
export interface ImportSource {
  path?: string | undefined
  text?: string | undefined
  name?: string | undefined
}

/** A worked-out import: the preview, and the text that applying it would save. */
export interface ImportPlan {
  preview: ImportPreview
  /** The writable file's text with the selected servers merged in. */
  text: string
  /** Ids merged into `text`. */
  imported: string[]
  /** Credentials of the merged servers that `text` references in the keychain. */
  movedSecrets: MovedSecret[]
}

/** Entries the file lacks are written whole; existing ones field by field (comments kept). */
function editsFor(targetText: string, servers: readonly ConvertedServer[]): EntryEdit[] {
  return servers.flatMap((server): EntryEdit[] =>
    definesServer(targetText, server.id)
      ? Object.entries(server.fields).map(([field, value]) => ({ id: server.id, field, value }))
      : [{ id: server.id, value: server.fields }],
  )
}

const belongsTo = (diagnostic: Diagnostic, path: string): boolean =>
  diagnostic.path === path ||
  diagnostic.path.startsWith(`${path}.`) ||
  diagnostic.path.startsWith(`${path}[`)

/**
 * Works out an import: converts the file, merges every server into the writable file's text,
 * validates the result like a save would, and classifies each server against the running
 * registry; each server's problems point into the imported file. `only` selects what to merge;
 * by default every server that would change and has no error.
 */
export function planImport(
  source: ImportSource,
  raw: RawConfig,
  registry: Registry,
  loadDraft: (text: string) => LoadResult,
  options: { only?: readonly string[] | undefined; keepPlaintext?: boolean | undefined } = {},
): ImportPlan {
  const { only } = options
  const { file, text } = readImportFile(source)
  const converted = convertImport(file, text, options)
  const mergedText = editEntries(raw.text, editsFor(raw.text, converted.servers))
  const result = loadDraft(mergedText)
  const hashes = new Map(result.build.servers.map((server) => [server.id, server]))
  const prefix = parseRegistryDocument(raw.path, raw.text).prefix
  const servers: ImportedServer[] = converted.servers.map(({ id, fields }) => {
    const config = hashes.get(id)
    const before = registry.hashes[id]
    const serverPath = formatPath([...prefix, id])
    const diagnostics = result.build.diagnostics
      .filter((d) => belongsTo(d, serverPath))
      .map((d) =>
        d.file === raw.path
          ? locateInImport(d, { text: mergedText, serverPath }, converted.doc, id)
          : d,
      )
    return {
      id,
      status:
        before === undefined
          ? 'added'
          : config && configHash(config) === before
            ? 'unchanged'
            : 'changed',
      fields: maskPlaintextSecrets(fields),
      ...(config ? { config: maskPlaintextSecrets(config) } : {}),
      diagnostics,
    }
  })
  const selected = converted.servers.filter((server) => {
    const planned = servers.find((s) => s.id === server.id)!
    if (only) return only.includes(server.id)
    return (
      planned.status !== 'unchanged' && !planned.diagnostics.some((d) => d.severity === 'error')
    )
  })
  return {
    preview: {
      from: file,
      form: converted.doc.form,
      target: { path: raw.path, hash: raw.hash, exists: raw.exists },
      servers,
      requiredSecrets: converted.requiredSecrets,
      secretsToMove: withoutValues(converted.movedSecrets),
      diagnostics: converted.diagnostics,
    },
    text: editEntries(raw.text, editsFor(raw.text, selected)),
    imported: selected.map((server) => server.id),
    movedSecrets: converted.movedSecrets.filter((s) => selected.some((t) => t.id === s.server)),
  }
}
