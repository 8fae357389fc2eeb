import type { Diagnostic } from '../model/registry'
import { checkSecrets, checkUnknownFields } from './checks'
import { parseRegistryDocument, type RegistryDocument } from './document'
import { EntryReporter, mergeEntries, type MergedEntry } from './entry-reporter'
import { describeIssues } from './issue-text'
import { normalizeEntry, inferTransport } from './normalize'
import { stripUnknown } from './schema-walk'
import { serverEntrySchema, type ServerConfig, type ServerEntry } from './schema'

/** The outcome of reading a registry: the servers, and every problem found on the way. */
export interface BuildResult {
  /** True when no diagnostic is an error; `servers` is only meaningful then. */
  ok: boolean
  /** Effective configs in display order (`ui.order`, then file order). */
  servers: ServerConfig[]
  /** Errors and warnings of every file, sorted by file (lowest precedence first) and position. */
  diagnostics: Diagnostic[]
}

/** Host-specific steps of normalisation. */
export interface BuildOptions {
  /** Makes a working directory absolute against the file it came from (main passes node:path). */
  resolveCwd?: (origin: string, cwd: string | undefined) => string | undefined
  /** Expands the `${app:…}` placeholders of `command`, `args` and `cwd` (main passes them). */
  expandApp?: (value: string) => string
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** `${app:…}` in the program a server or its launcher runs, its arguments and folder. */
function expandApp(config: ServerConfig, expand: (value: string) => string): void {
  if (config.command !== undefined) config.command = expand(config.command)
  config.args = config.args.map(expand)
  if (config.cwd !== undefined) config.cwd = expand(config.cwd)
  const launch = config.launch
  if (launch) {
    config.launch = {
      ...launch,
      command: expand(launch.command),
      ...(launch.args ? { args: launch.args.map(expand) } : {}),
      ...(launch.cwd !== undefined ? { cwd: expand(launch.cwd) } : {}),
    }
  }
}

/**
 * Validates and normalises the servers of one or more layered files (lowest precedence first;
 * later files override earlier ones field by field, per server id).
 */
export function buildRegistry(
  docs: readonly RegistryDocument[],
  options: BuildOptions = {},
): BuildResult {
  const diagnostics: Diagnostic[] = docs.flatMap((doc) => doc.diagnostics)
  const servers: ServerConfig[] = []
  for (const entry of mergeEntries(docs)) {
    const config = buildEntry(entry, diagnostics)
    if (!config) continue
    if (options.expandApp) expandApp(config, options.expandApp)
    if (options.resolveCwd) {
      const cwd =
        config.transport === 'stdio' ? options.resolveCwd(config.origin, config.cwd) : undefined
      if (cwd !== undefined) config.cwd = cwd
      if (config.launch) {
        const launchCwd = options.resolveCwd(config.origin, config.launch.cwd)
        if (launchCwd !== undefined) config.launch = { ...config.launch, cwd: launchCwd }
      }
    }
    servers.push(config)
  }
  const order = (server: ServerConfig): number => server.ui.order ?? Number.POSITIVE_INFINITY
  servers.sort((a, b) => order(a) - order(b))
  const fileIndex = new Map(docs.map((doc, index) => [doc.file, index]))
  diagnostics.sort(
    (a, b) =>
      (fileIndex.get(a.file) ?? 0) - (fileIndex.get(b.file) ?? 0) ||
      a.line - b.line ||
      a.column - b.column,
  )
  return { ok: !diagnostics.some((d) => d.severity === 'error'), servers, diagnostics }
}

function buildEntry(entry: MergedEntry, diagnostics: Diagnostic[]): ServerConfig | undefined {
  const reporter = new EntryReporter(entry, diagnostics)
  const errorsBefore = diagnostics.filter((d) => d.severity === 'error').length
  const parsed = serverEntrySchema.safeParse(entry.value)
  if (!parsed.success) {
    for (const issue of describeIssues(parsed.error.issues, entry.value)) {
      reporter.report(issue.path, 'error', issue.rule, issue.text)
    }
  }
  checkUnknownFields(reporter, serverEntrySchema)
  checkSecrets(reporter)
  if (!parsed.success) return undefined
  const connectable = checkConnection(reporter, parsed.data)
  checkDetails(reporter, parsed.data)
  if (diagnostics.filter((d) => d.severity === 'error').length > errorsBefore) return undefined
  const origin = entry.top.doc.file
  const known = stripUnknown(serverEntrySchema, parsed.data)
  const config = normalizeEntry(entry.id, known, {
    origin,
    inputDocs: (field) => reporter.docOf(field),
  })
  if (!connectable) config.enabled = false
  return config
}

/**
 * Transport, url and command must agree. Returns false for an entry with nothing to connect
 * to: a warning, and the server stays disabled (spec 002's examples have such entries).
 */
function checkConnection(reporter: EntryReporter, entry: ServerEntry): boolean {
  const typeTransport = entry.type === 'streamable-http' ? 'http' : entry.type
  if (entry.transport && typeTransport && entry.transport !== typeTransport) {
    reporter.report(
      ['type'],
      'error',
      'transport_conflict',
      `type '${entry.type}' disagrees with transport '${entry.transport}': keep one of them`,
    )
  }
  const explicit = entry.transport ?? typeTransport
  const transport = inferTransport(entry)
  if (!entry.url && !entry.command) {
    if (entry.launch) {
      reporter.report(
        ['launch'],
        'error',
        'missing_url',
        'launch needs "url": the address the started server listens on, e.g. http://127.0.0.1:8080/mcp',
      )
      return true
    }
    if (explicit) {
      const needs = explicit === 'stdio' ? '"command"' : '"url"'
      reporter.report(
        [entry.transport ? 'transport' : 'type'],
        'error',
        explicit === 'stdio' ? 'missing_command' : 'missing_url',
        `transport ${explicit} needs ${needs}: add it, or set "enabled": false while it is not ready`,
      )
      return true
    }
    reporter.report(
      [],
      'warning',
      'no_endpoint',
      entry.enabled === false
        ? 'has no url or command: add "url" (HTTP/SSE) or "command" (stdio) before enabling it'
        : 'has no url or command, so it stays disabled: add "url" for an HTTP/SSE server or "command" for a stdio one',
    )
    return false
  }
  if (transport === 'stdio') {
    if (!entry.command) {
      reporter.report(
        [entry.transport ? 'transport' : 'type'],
        'error',
        'missing_command',
        'transport stdio needs "command": the program to run',
      )
    }
    if (entry.url && !explicit) {
      reporter.report(
        ['command'],
        'warning',
        'ambiguous_transport',
        'has both url and command: it runs command over stdio; set "transport" to choose, or move command under "launch" to start a local HTTP server',
      )
    } else if (entry.url) {
      reporter.report(['url'], 'warning', 'ignored_field', 'url is ignored for transport stdio')
    }
    if (entry.headers && Object.keys(entry.headers).length > 0) {
      reporter.report(
        ['headers'],
        'warning',
        'ignored_field',
        'headers are ignored for transport stdio: pass values to the program through env',
      )
    }
    if (entry.identityHeaders !== undefined) {
      reporter.report(
        ['identityHeaders'],
        'warning',
        'ignored_field',
        'identityHeaders is ignored for transport stdio: a stdio server gets no HTTP headers',
      )
    }
    if (entry.launch) {
      reporter.report(
        ['launch'],
        'warning',
        'ignored_field',
        'launch is ignored for transport stdio: the console already runs command',
      )
    }
    return true
  }
  if (!entry.url) {
    reporter.report(
      [entry.transport ? 'transport' : 'type'],
      'error',
      'missing_url',
      `transport ${transport} needs "url", e.g. https://rag.example.com/mcp`,
    )
    return true
  }
  checkUrl(reporter, entry.url)
  for (const field of ['command', 'args', 'env', 'cwd'] as const) {
    if (entry[field] === undefined) continue
    reporter.report(
      [field],
      'warning',
      'ignored_field',
      field === 'command'
        ? `command is ignored for transport ${transport}: to have the console start the server, move it under "launch"`
        : `${field} is ignored for transport ${transport} (it applies to stdio commands; see "launch")`,
    )
  }
  return true
}

function checkUrl(reporter: EntryReporter, url: string): void {
  if (url.startsWith('${')) return // the whole URL comes from a reference
  const probe = url.replace(/\$\{[^}]*\}/g, 'x')
  let parsed: URL | undefined
  try {
    parsed = new URL(probe)
  } catch {
    parsed = undefined
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    reporter.report(
      ['url'],
      'error',
      'invalid_url',
      'expected an absolute http(s) URL such as https://rag.example.com/mcp',
    )
  }
}

function checkDetails(reporter: EntryReporter, entry: ServerEntry): void {
  if (entry.dialect === 'generic') {
    reporter.report(
      ['dialect'],
      'error',
      'generic_needs_mapping',
      'dialect generic needs a mapping: write "dialect": { "search": { "tool": "…" } }',
    )
  }
  if (entry.timeoutMs !== undefined && entry.timeoutMs < 100) {
    reporter.report(
      ['timeoutMs'],
      'warning',
      'suspicious_timeout',
      `timeoutMs is in milliseconds: ${entry.timeoutMs} ms is too short for any server; did you mean ${entry.timeoutMs * 1000}?`,
    )
  }
  for (const [name, value] of Object.entries(entry.headers ?? {})) {
    const bad = headerValueProblem(value)
    if (bad) {
      reporter.report(
        ['headers', name],
        'error',
        'invalid_header_value',
        `the value of header '${name.slice(0, 40)}' ${bad}: HTTP cannot send it`,
      )
    }
    if (!HEADER_NAME.test(name)) {
      reporter.report(
        ['headers', name],
        'error',
        'invalid_header',
        `'${name.slice(0, 40)}' is not a valid HTTP header name: use letters, digits and '-'`,
        { on: 'key' },
      )
    }
  }
  const seen = new Set<string>()
  entry.dataSources?.forEach((source, index) => {
    if (seen.has(source.id)) {
      reporter.report(
        ['dataSources', index, 'id'],
        'error',
        'duplicate_id',
        `data source id '${source.id}' is used twice: ids must be unique per server`,
      )
    }
    seen.add(source.id)
  })
  if (entry.oauth) checkOAuth(reporter, entry)
  const pattern = entry.launch?.readyPattern
  if (pattern !== undefined) {
    try {
      new RegExp(pattern)
    } catch {
      reporter.report(
        ['launch', 'readyPattern'],
        'error',
        'invalid_pattern',
        'not a valid regular expression',
      )
    }
  }
}

/** A client secret is named, never written: `${keychain:NAME}` or `${env:VAR}`. */
export const CLIENT_SECRET_REF = /^\$\{(keychain|env):([A-Za-z0-9_.-]{1,128})\}$/

/** The `oauth` block: secrets only by keychain reference, URLs that parse, a grant that works. */
function checkOAuth(reporter: EntryReporter, entry: ServerEntry): void {
  const oauth = entry.oauth!
  if (inferTransport(entry) === 'stdio') {
    reporter.report(
      ['oauth'],
      'warning',
      'ignored_field',
      'oauth is ignored for transport stdio: OAuth applies to HTTP and SSE servers',
    )
  }
  if (oauth.clientSecret !== undefined && !CLIENT_SECRET_REF.test(oauth.clientSecret)) {
    reporter.report(
      ['oauth', 'clientSecret'],
      'error',
      'secret_not_referenced',
      'clientSecret must be a reference such as "${keychain:oauthClientSecret}" (or "${env:VAR}"): store the secret in Config → Secrets',
    )
  }
  if (oauth.clientSecret !== undefined && oauth.clientId === undefined) {
    reporter.report(
      ['oauth', 'clientSecret'],
      'error',
      'missing_client_id',
      'clientSecret needs "clientId": the pre-registered client it belongs to',
    )
  }
  if (oauth.grant === 'client_credentials' && oauth.clientSecret === undefined) {
    reporter.report(
      ['oauth', 'grant'],
      'error',
      'missing_client_secret',
      'grant client_credentials needs "clientId" and "clientSecret" (a ${keychain:NAME} reference)',
    )
  }
  const urls = [
    'clientMetadataUrl',
    'authorizationServerUrl',
    'authorizationEndpoint',
    'tokenEndpoint',
    'registrationEndpoint',
  ] as const
  for (const field of urls) {
    const value = oauth[field]
    if (value === undefined) continue
    let parsed: URL | undefined
    try {
      parsed = new URL(value)
    } catch {
      parsed = undefined
    }
    const https = field === 'clientMetadataUrl'
    if (!parsed || !(https ? ['https:'] : ['http:', 'https:']).includes(parsed.protocol)) {
      reporter.report(
        ['oauth', field],
        'error',
        'invalid_url',
        https
          ? 'clientMetadataUrl must be an https URL with a path, e.g. https://console.example.com/client.json'
          : `${field} must be an absolute http(s) URL`,
      )
    }
  }
}

/**
 * Why a header value cannot go on the wire, or undefined. Line breaks would start a new header
 * (injection), NUL ends it, and HTTP/1.1 header bytes are Latin-1: anything beyond fails in
 * fetch at connect time instead of here.
 */
function headerValueProblem(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return 'holds a line break'
  if (value.includes('\0')) return 'holds a NUL character'
  const wide = [...value].find((char) => char.codePointAt(0)! > 0xff)
  return wide ? `holds '${wide}', a character beyond Latin-1` : undefined
}

/** Validates the text of one file on its own (no layering). */
export function validateText(file: string, text: string, options: BuildOptions = {}): BuildResult {
  return buildRegistry([parseRegistryDocument(file, text)], options)
}
