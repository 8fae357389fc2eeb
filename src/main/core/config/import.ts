import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseRegistryDocument, type RegistryDocument } from '#shared/config/document'
import { EntryReporter, mergeEntries } from '#shared/config/entry-reporter'
import {
  keychainMove,
  plaintextSecretReason,
  replaceArgSecrets,
  replaceUrlSecrets,
} from '#shared/config/plaintext-secrets'
import { serverEntrySchema } from '#shared/config/schema'
import { isPlainObject } from '#shared/config/schema-walk'
import { ConsoleError } from '#shared/errors'
import type { ImportCandidate, RequiredSecret, SecretToMove } from '#shared/ipc/registry'
import type { Diagnostic } from '#shared/model/registry'
import { snapshot } from './load'

/**
 * Reading Claude Desktop, Cursor and VS Code config files as registry entries: `type` becomes
 * `transport`, `disabled` becomes `enabled`, VS Code `${input:ID}` becomes `${keychain:ID}`, and
 * fields the console has no use for are dropped with a warning.
 */

/** One server of the imported file, converted to the fields to write. */
export interface ConvertedServer {
  id: string
  fields: Record<string, unknown>
}

/** A plaintext credential of the imported file, replaced by a keychain reference. */
export interface MovedSecret extends SecretToMove {
  /** The value to store in the keychain: main process only, never in a preview. */
  value: string
}

/** What a preview or result may say about moved secrets: everything but the values. */
export const withoutValues = (moved: readonly MovedSecret[]): SecretToMove[] =>
  moved.map(({ server, name, where }) => ({ server, name, where }))

/** An imported file, converted: its servers, the secrets to set or move, and its problems. */
export interface ConvertedFile {
  doc: RegistryDocument
  servers: ConvertedServer[]
  requiredSecrets: RequiredSecret[]
  /** Empty when converted with `keepPlaintext`. */
  movedSecrets: MovedSecret[]
  diagnostics: Diagnostic[]
}

const ENTRY_FIELDS = new Set(Object.keys(serverEntrySchema.shape))
/** Where `${…}` references are resolved (and so converted). */
const REFERENCE_FIELDS = new Set(['url', 'headers', 'env'])
const INPUT = /\$\{input:([^}]*)\}/g
const BARE_VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}/g

const PICK = 'pick a Claude Desktop, Cursor or VS Code config file'

/**
 * Reads the file to import as a registry is read (regular files of at most 5 MB, a FIFO never
 * waited on): a missing file is `not_found`, anything else unreadable `invalid_argument`.
 */
export function readImportFile(source: {
  path?: string | undefined
  text?: string | undefined
  name?: string | undefined
}): {
  file: string
  text: string
} {
  if (source.text !== undefined) return { file: source.name ?? 'imported file', text: source.text }
  const file = resolve(source.path ?? '')
  const read = snapshot(file, PICK)
  if (!read.exists) {
    throw new ConsoleError({
      code: 'not_found',
      message: `cannot read ${file} (ENOENT): pick an existing Claude Desktop, Cursor or VS Code config file`,
    })
  }
  if (read.problem) {
    throw new ConsoleError({ code: 'invalid_argument', message: read.problem.message })
  }
  return { file, text: read.text }
}

/**
 * Converts every server of a foreign (or rag-mcp.json) file into entry fields to write.
 * Credentials written in plain text (header and env values, a URL's password and secret-looking
 * query values, `--api-key x` / `--token=x` arguments) become `${keychain:NAME}` references
 * (listed in `movedSecrets` with their values), unless `keepPlaintext`.
 */
export function convertImport(
  file: string,
  text: string,
  options: { keepPlaintext?: boolean | undefined } = {},
): ConvertedFile {
  const doc = parseRegistryDocument(file, text)
  const diagnostics: Diagnostic[] = [...doc.diagnostics]
  const requiredSecrets: RequiredSecret[] = []
  const movedSecrets: MovedSecret[] = []
  const servers: ConvertedServer[] = []
  for (const merged of mergeEntries([doc])) {
    const reporter = new EntryReporter(merged, diagnostics)
    const fields: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(merged.value)) {
      if (key === 'type' && typeof value === 'string') {
        fields.transport = value === 'streamable-http' ? 'http' : value
      } else if (key === 'disabled' && typeof value === 'boolean') {
        fields.enabled = !value
      } else if (ENTRY_FIELDS.has(key)) {
        fields[key] = REFERENCE_FIELDS.has(key)
          ? convertReferences(value, [key], doc, reporter, requiredSecrets)
          : value
      } else {
        reporter.report(
          [key],
          'warning',
          'not_imported',
          `field '${key}' is not imported: the console has no use for it`,
          { on: 'key' },
        )
      }
    }
    if (!options.keepPlaintext) {
      const taken = new Set(
        requiredSecrets.filter((s) => s.server === merged.id).map((s) => s.name),
      )
      movedSecrets.push(...moveSecrets(merged.id, fields, taken))
    }
    servers.push({ id: merged.id, fields })
  }
  return { doc, servers, requiredSecrets, movedSecrets, diagnostics }
}

/**
 * Replaces plaintext-looking credentials of `fields` with keychain references: header and env
 * values, a URL's password and secret-looking query values, and the values of `--api-key x`,
 * `--token=x`-style arguments.
 */
function moveSecrets(
  server: string,
  fields: Record<string, unknown>,
  taken: Set<string>,
): MovedSecret[] {
  const moved: MovedSecret[] = []
  const freeName = (wanted: string): string => {
    const base = keychainMove(wanted, '').name
    let name = base
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`
    taken.add(name)
    return name
  }
  for (const field of ['headers', 'env']) {
    const map = fields[field]
    if (!isPlainObject(map)) continue
    for (const [key, value] of Object.entries(map)) {
      if (typeof value !== 'string' || value.includes('${')) continue
      if (!plaintextSecretReason(key, value)) continue
      const move = keychainMove(key, value)
      const name = freeName(key)
      map[key] = move.reference(name)
      moved.push({ server, name, where: `${field}.${key}`, value: move.secret })
    }
  }
  if (typeof fields.url === 'string') {
    fields.url = replaceUrlSecrets(fields.url, (key, value) => {
      const name = freeName(key)
      const where = key === 'password' ? 'url (password)' : `url (query ${key})`
      moved.push({ server, name, where, value })
      return `\${keychain:${name}}`
    })
  }
  if (Array.isArray(fields.args) && fields.args.every((arg) => typeof arg === 'string')) {
    const args = fields.args as string[]
    fields.args = replaceArgSecrets(args, (key, value) => {
      const name = freeName(key)
      moved.push({ server, name, where: `args (${key})`, value })
      return `\${keychain:${name}}`
    })
  }
  return moved
}

function convertReferences(
  value: unknown,
  path: (string | number)[],
  doc: RegistryDocument,
  reporter: EntryReporter,
  required: RequiredSecret[],
): unknown {
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        convertReferences(item, [...path, key], doc, reporter, required),
      ]),
    )
  }
  if (typeof value !== 'string') return value
  const server = reporter.entry.id
  return value
    .replace(INPUT, (_match, name: string) => {
      const input = doc.inputs.get(name)
      if (input?.password) {
        required.push({ server, name, reason: `VS Code password input '${name}'` })
      } else {
        required.push({ server, name, reason: `VS Code input '${name}'` })
        reporter.report(
          path,
          'warning',
          'input_reference',
          input
            ? `'\${input:${name}}' is not a password input: it becomes \${keychain:${name}}; set it in Config → Secrets, or replace it with the value`
            : `'\${input:${name}}' matches no entry of "inputs": it becomes \${keychain:${name}}; set it in Config → Secrets`,
        )
      }
      return `\${keychain:${name}}`
    })
    .replace(BARE_VARIABLE, (_match, name: string, fallback: string | undefined) => {
      reporter.report(
        path,
        'warning',
        'converted_reference',
        `'\${${name}}' becomes \${env:${name}}${fallback ? ' (its default is dropped)' : ''}`,
      )
      return `\${env:${name}}`
    })
}

/** Where Claude Desktop, Cursor and VS Code (user settings) keep their MCP servers. */
export function importCandidatePaths(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Omit<ImportCandidate, 'exists'>[] {
  const home = env.HOME ?? homedir()
  const appData =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
        : (env.XDG_CONFIG_HOME ?? join(home, '.config'))
  return [
    {
      client: 'claude-desktop',
      label: 'Claude Desktop',
      path: join(appData, 'Claude', 'claude_desktop_config.json'),
    },
    { client: 'cursor', label: 'Cursor', path: join(home, '.cursor', 'mcp.json') },
    { client: 'vscode', label: 'VS Code (user)', path: join(appData, 'Code', 'User', 'mcp.json') },
  ]
}
