import { DEFAULT_METRICS_PORT } from '#core/monitoring/metrics-server'
import { FUSION_MODES } from '#shared/model/operations'

/**
 * The CLI's one declaration of its commands and options. The parser's config (args.ts), each
 * handler's option type ({@link CommandOptions}) and the usage text (usage.ts) come from here;
 * command-table.test.ts holds docs/cli.md to it.
 */

interface OptionBase {
  readonly description: string
  /** A one-letter alias: `-c` for `--complete`. */
  readonly short?: string
}

/** `--json`: present or not. */
export interface FlagSpec extends OptionBase {
  readonly type: 'boolean'
}

/** `--tool NAME` (string) or `--server ID`, repeatable (list). */
export interface TextSpec extends OptionBase {
  readonly type: 'string' | 'list'
  /** The value's placeholder in a synopsis: `ID`, `rrf|score|minmax`. */
  readonly value: string
  readonly default?: string
  /** Shown without brackets in a synopsis; the handler checks it, with its own message. */
  readonly required?: boolean
  /**
   * A list the command takes one value of (its handler refuses more): `--server` is a list
   * for the parser, which shares one config between the commands.
   */
  readonly once?: boolean
}

/** A whole number within bounds, checked by the parser. */
export interface NumberSpec extends OptionBase {
  readonly type: 'number'
  readonly value: string
  readonly min: number
  readonly max: number
  readonly default?: number
}

/** One of a few words, checked by the parser: `--fusion rrf|score|minmax`. */
export interface ChoiceSpec extends OptionBase {
  readonly type: 'choice'
  readonly choices: readonly string[]
  /** The value's placeholder in a synopsis when listing the words would be too long: `MODE`. */
  readonly value?: string
  readonly default?: string
}

export type OptionSpec = FlagSpec | TextSpec | NumberSpec | ChoiceSpec

/** The value's placeholder in a synopsis: `ID`, `N`, `rrf|score|minmax`. */
export const placeholderOf = (spec: TextSpec | NumberSpec | ChoiceSpec): string =>
  spec.type === 'choice' ? (spec.value ?? spec.choices.join('|')) : spec.value

/** Who answers a form a server asks for (`--elicit`). */
export const ELICIT_MODES = ['ask', 'accept-defaults', 'decline', 'cancel'] as const

/** A word after the command. */
export interface ArgSpec {
  /** As in a synopsis: `QUERY`, `[SERVER]`, `login|logout|status`. */
  readonly name: string
  readonly description: string
}

export interface CommandSpec {
  readonly summary: string
  readonly args: readonly ArgSpec[]
  readonly options: { readonly [name: string]: OptionSpec }
}

export const GLOBAL_OPTIONS = {
  config: {
    type: 'string',
    value: 'PATH',
    description: "the rag-mcp.json to use (else RAG_MCP_CONFIG, the app's files, the demo)",
  },
  json: {
    type: 'boolean',
    description: 'machine-readable output on stdout; progress and warnings stay on stderr',
  },
  user: {
    type: 'string',
    value: 'ID',
    description: "act as this user id (default: the active profile's)",
  },
  tags: {
    type: 'string',
    value: 'JSON_ARRAY',
    description: `session tags of the acting user, e.g. '["department:legal"]'`,
  },
  'human-uid': { type: 'string', value: 'ID', description: "the acting user's human uid" },
  timeout: {
    type: 'number',
    value: 'MS',
    min: 100,
    max: 300_000,
    description: 'time budget per server (connect and call)',
  },
  help: {
    type: 'boolean',
    short: 'h',
    description: "this help; after a command, that command's options",
  },
} as const satisfies Record<string, OptionSpec>

const server = {
  type: 'list',
  value: 'ID',
  description: 'only this server of the registry (repeatable; default: every enabled one)',
} as const satisfies TextSpec

const oneServer = (description: string, required = false) =>
  ({ type: 'list', value: 'ID', description, required, once: true }) as const satisfies TextSpec

/** `search`, `synthesize` and `eval` select servers and sources together. */
const selectServer = {
  ...server,
  description: 'this server, with its default sources (repeatable)',
} as const satisfies TextSpec

const source = {
  type: 'list',
  value: 'SERVER:SOURCE',
  description:
    "this data source of a server (repeatable); with neither --server nor --source, the profile's remembered selection",
} as const satisfies TextSpec

const topK = {
  type: 'number',
  value: 'N',
  min: 1,
  max: 100,
  description: 'hits asked of each server',
} as const satisfies NumberSpec

const fusion = {
  type: 'choice',
  choices: FUSION_MODES,
  description: "how the servers' lists are merged into one",
} as const satisfies ChoiceSpec

const toolArgs = {
  type: 'string',
  value: 'JSON',
  description: `the tool's arguments as a JSON object, e.g. '{"query": "vpn"}'`,
} as const satisfies TextSpec

const elicit = {
  type: 'choice',
  choices: ELICIT_MODES,
  value: 'MODE',
  description:
    'ask, accept-defaults, decline or cancel: who answers a form the server asks for (default: ask at a terminal, else the console offers none)',
} as const satisfies ChoiceSpec

/**
 * TARGET, the server `call`, `tools`, `resources` and `prompts` talk to: exactly one of
 * --server, --url and --stdio.
 */
export const TARGET_OPTIONS = {
  server: oneServer('a server of the registry (TARGET: one of --server, --url, --stdio)'),
  url: {
    type: 'string',
    value: 'URL',
    description: 'an MCP server at this address, not in the registry',
  },
  transport: {
    type: 'choice',
    choices: ['http', 'sse'],
    description: 'with --url: the transport (default: sse for a path ending in /sse, else http)',
  },
  stdio: {
    type: 'string',
    value: '"CMD"',
    description: 'a stdio MCP server started with this command line (split as a shell does)',
  },
  header: {
    type: 'list',
    value: '"NAME: VALUE"',
    description: 'with --url: an HTTP header to send (repeatable; credentials are redacted)',
  },
  oauth: {
    type: 'string',
    value: 'JSON',
    description: `with --url: the server's oauth block, e.g. '{"clientId": "…"}'`,
  },
} as const satisfies Record<string, OptionSpec>

export const COMMANDS = {
  info: { summary: 'where the registry and the data folder are', args: [], options: {} },
  servers: { summary: 'connect to every enabled server and report each', args: [], options: {} },
  discover: {
    summary: 'data sources per server for the acting user',
    args: [],
    options: { server },
  },
  search: {
    summary: 'one query across the selected servers, merged',
    args: [{ name: 'QUERY', description: 'what to search for (the words are joined)' }],
    options: {
      phrase: {
        type: 'list',
        value: 'P',
        description: 'another phrasing searched with the query (repeatable, up to 4)',
      },
      server: selectServer,
      source,
      'top-k': topK,
      fusion,
    },
  },
  synthesize: {
    summary: 'one answer per selected server',
    args: [{ name: 'QUERY', description: 'the question (the words are joined)' }],
    options: { server: selectServer, source, 'top-k': topK },
  },
  verify: {
    summary: 'does this citation (the link clicked) open for the acting user?',
    args: [],
    options: {
      server: oneServer('the server the citation came from', true),
      segment: {
        type: 'string',
        value: 'UID',
        description: 'the segment (a hit id): ask the server for access and a fresh link',
      },
      url: { type: 'string', value: 'URL', description: 'the link the user clicked' },
    },
  },
  call: {
    summary: 'one raw tool call to any MCP server',
    args: [],
    options: {
      ...TARGET_OPTIONS,
      tool: { type: 'string', value: 'NAME', description: 'the tool to call', required: true },
      args: toolArgs,
      log: { type: 'boolean', description: 'the JSON-RPC traffic on stderr after the call' },
      'connect-timeout': {
        type: 'number',
        value: 'MS',
        min: 100,
        max: 300_000,
        description: 'time budget for connecting alone (default: --timeout)',
      },
      elicit,
    },
  },
  tools: {
    summary: "the server's tools with their input schemas",
    args: [],
    options: { ...TARGET_OPTIONS, elicit },
  },
  resources: {
    summary: 'its resources and resource templates',
    args: [],
    options: TARGET_OPTIONS,
  },
  prompts: { summary: 'its prompts and their arguments', args: [], options: TARGET_OPTIONS },
  watch: {
    summary: 'one line per registry reload and status change',
    args: [],
    options: {},
  },
  secrets: {
    summary: 'set (value read from stdin), delete or list keychain values',
    args: [
      { name: 'set|delete|list', description: 'what to do' },
      { name: '[SERVER]', description: 'the server (or --server ID)' },
      { name: '[NAME]', description: "the value's name (or --name NAME; not with list)" },
    ],
    options: {
      server: oneServer('the server, instead of the SERVER word'),
      name: {
        type: 'string',
        value: 'NAME',
        description: "the value's name, instead of the NAME word",
      },
    },
  },
  doctor: {
    summary: "does each server keep its family's contract? (exit 1 when a check fails)",
    args: [],
    options: { server },
  },
  monitor: {
    summary:
      'headless monitoring: probes and canaries on a schedule, one line per event, Prometheus /metrics, /healthz and /readyz, OTLP export when OTEL_EXPORTER_OTLP_ENDPOINT is set; SIGHUP re-reads the registry, SIGTERM drains and exits 0',
    args: [],
    options: {
      'metrics-port': {
        type: 'number',
        value: 'N',
        min: 0,
        max: 65_535,
        default: DEFAULT_METRICS_PORT,
        description: 'the port of /metrics, /healthz and /readyz (0: any free one)',
      },
      'metrics-host': {
        type: 'string',
        value: 'IP',
        default: '127.0.0.1',
        description: 'the address they listen on (0.0.0.0 in a container)',
      },
      interval: {
        type: 'string',
        value: 'DURATION',
        default: '15s',
        description: 'time between probe rounds: 500ms, 15s, 2m, 1h (a bare number is seconds)',
      },
    },
  },
  eval: {
    summary:
      'run a golden set and print its metrics (exit 1 when a --min fails or the merged list is significantly worse than --baseline); or, with --qrels and --run, score a TREC run file as trec_eval does (no server)',
    args: [{ name: '[SET.json]', description: 'the golden set file (not with --qrels/--run)' }],
    options: {
      server: selectServer,
      source,
      profile: {
        type: 'list',
        value: 'ID',
        description: 'run as this saved profile (repeatable; default: the acting user)',
      },
      k: {
        type: 'string',
        value: 'N',
        description: 'hits kept per query (default 10); with --qrels: cutoffs such as 5,10',
      },
      min: {
        type: 'list',
        value: "'[SERVER:]METRIC[@K]=VALUE'",
        description:
          'a threshold the run must meet (repeatable); METRIC: recall, precision, mrr, ndcg, hit_rate',
      },
      baseline: {
        type: 'string',
        value: 'RUN',
        description: 'a stored run id or a run file to compare the merged list with',
      },
      fusion: { ...fusion, description: `${fusion.description} (default rrf)` },
      format: {
        type: 'choice',
        choices: ['table', 'json', 'trec'],
        description: 'the output (default table, json with --json)',
      },
      qrels: {
        type: 'string',
        value: 'QRELS',
        description: 'a TREC qrels file to score --run against',
      },
      run: { type: 'string', value: 'RUN', description: 'a TREC run file' },
      complete: {
        type: 'boolean',
        short: 'c',
        description: 'with --qrels: judged queries without run lines count as 0',
      },
    },
  },
  auth: {
    summary:
      'OAuth sign-in of an HTTP/SSE server: login prints the URL to open and waits; logout deletes the tokens',
    args: [{ name: 'login|logout|status', description: 'what to do' }],
    options: { server: oneServer('the server to sign in to') },
  },
  map: {
    summary:
      "call the server's search-like tool with the query and print a search mapping made from its reply",
    args: [],
    options: {
      server: oneServer('the server to map', true),
      query: {
        type: 'string',
        value: 'Q',
        description: 'a search the server can answer',
        required: true,
      },
      tool: {
        type: 'string',
        value: 'NAME',
        description: 'the tool to call (default: the first search-like one)',
      },
      args: { ...toolArgs, description: `${toolArgs.description}; "{query}" marks where Q goes` },
      hits: { type: 'string', value: 'PATH', description: 'the list of hits in the reply' },
      field: {
        type: 'list',
        value: 'ROLE=PATH',
        description:
          'the field of a hit for a role: id, title, text, snippet, uri, score, sourceId (repeatable)',
      },
      'score-order': {
        type: 'string',
        value: 'higher-is-better|lower-is-better',
        description: "the score's direction",
      },
      write: {
        type: 'boolean',
        description: 'save the mapping into rag-mcp.json (safe save) and apply it',
      },
    },
  },
  import: {
    summary:
      'add the MCP servers of a Claude Desktop, Cursor or VS Code config to rag-mcp.json, credentials moved to the keychain',
    args: [
      {
        name: 'FILE|claude-desktop|cursor|vscode',
        description: 'a config file, or the client whose own config to read',
      },
    ],
    options: {
      server: { ...server, description: 'only this server of the file (repeatable)' },
      'dry-run': { type: 'boolean', description: 'show what would be imported, write nothing' },
      'keep-plaintext': {
        type: 'boolean',
        description: 'without a usable keychain, write credentials into the file',
      },
    },
  },
} as const satisfies Record<string, CommandSpec>

export type CommandName = keyof typeof COMMANDS

/** The value an option gives its handler. */
type ValueOf<S extends OptionSpec> = S extends FlagSpec
  ? boolean
  : S extends { type: 'choice'; choices: readonly (infer W)[] }
    ? W
    : S extends NumberSpec
      ? number
      : S extends { type: 'list' }
        ? string[]
        : string

type WithDefault<Os> = { [K in keyof Os]: Os[K] extends { default: unknown } ? K : never }[keyof Os]

/** The parsed options of a table of options: those with a default are always there. */
export type OptionValues<Os extends CommandSpec['options']> = {
  -readonly [K in WithDefault<Os>]: ValueOf<Os[K]>
} & {
  -readonly [K in Exclude<keyof Os, WithDefault<Os>>]?: ValueOf<Os[K]>
}

/** What command C's handler gets as its options. */
export type CommandOptions<C extends CommandName> = OptionValues<(typeof COMMANDS)[C]['options']>
