/** `rag-console --help`. */
export const USAGE = `usage: rag-console [--config PATH] [--json] [--user ID] [--tags JSON_ARRAY]
                   [--human-uid ID] [--timeout MS] <command> [options]

commands:
  info                                   where the registry and the data folder are
  servers                                connect to every enabled server and report each
  discover [--server ID]...              data sources per server for the acting user
  search QUERY [--phrase P]... [--server ID]... [--source SERVER:SOURCE]...
         [--top-k N] [--fusion rrf|score|minmax]
                                         one query across the selected servers, merged
  synthesize QUERY [--server ID]... [--source SERVER:SOURCE]... [--top-k N]
                                         one answer per selected server
  verify --server ID [--segment UID] [--url URL]
                                         does this citation (the link clicked) open for
                                         the acting user?
  call TARGET --tool NAME [--args JSON] [--log] [--connect-timeout MS] [--elicit MODE]
                                         one raw tool call to any MCP server (--log: the
                                         JSON-RPC traffic on stderr; --connect-timeout:
                                         connecting alone, default --timeout)
  tools TARGET [--elicit MODE]           the server's tools with their input schemas

  resources TARGET                       its resources and resource templates
  prompts TARGET                         its prompts and their arguments
  watch                                  one line per registry reload and status change
  monitor [--metrics-port N] [--metrics-host IP] [--interval 15s]
                                         headless monitoring: probes and canaries on a
                                         schedule, one line per event, Prometheus /metrics,
                                         /healthz and /readyz on 127.0.0.1 (or IP; default
                                         port 9470, 0: any free one), OTLP export when
                                         OTEL_EXPORTER_OTLP_ENDPOINT is set; SIGHUP re-reads
                                         the registry, SIGTERM drains and exits 0
  secrets set SERVER NAME                store a keychain value read from stdin
  secrets delete SERVER NAME             (or --server ID --name NAME)
  secrets list [SERVER]                  which keychain values are set
  doctor [--server ID]...                does each server keep its family's contract? (exit 1
                                         when a check fails)
  eval SET.json [--server ID]... [--source SERVER:SOURCE]... [--profile ID]... [--k N]
       [--min '[SERVER:]METRIC[@K]=VALUE']... [--baseline RUN] [--fusion rrf|score|minmax]
       [--format table|json|trec]
                                         run a golden set and print its metrics (exit 1 when
                                         a --min fails or the merged list is significantly
                                         worse than --baseline, a run id or file)
  eval --qrels QRELS --run RUN [--k 5,10] [-c|--complete] [--format table|json|trec]
                                         score a TREC run file against qrels as trec_eval
                                         does (no server): map, recip_rank, P_k, recall_k,
                                         ndcg_cut_k and judged@k per query and all; -c counts
                                         judged queries without run lines as 0
  map --server ID --query Q [--tool NAME] [--args JSON] [--hits PATH] [--field ROLE=PATH]...
      [--score-order higher-is-better|lower-is-better] [--write]
                                         call the server's search-like tool with Q and print
                                         a search mapping made from its reply (--field
                                         ROLE=PATH overrides a guess: id, title, text,
                                         snippet, uri, score, sourceId); --write saves it
                                         into rag-mcp.json (safe save, then applied)
  auth login|logout|status [--server ID] OAuth sign-in of an HTTP/SSE server: login prints the
                                         URL to open and waits; logout deletes the tokens
  import FILE|claude-desktop|cursor|vscode [--server ID]... [--dry-run] [--keep-plaintext]
                                         add the MCP servers of a Claude Desktop, Cursor or
                                         VS Code config to rag-mcp.json, credentials moved to
                                         the keychain (--dry-run: show, write nothing)

TARGET: --server ID | --url URL [--transport http|sse] [--header "NAME: VALUE"]... [--oauth JSON]
        | --stdio "CMD"        (--oauth: the server's oauth block, e.g. '{"clientId": "…"}')
MODE (--elicit): ask | accept-defaults | decline | cancel: who answers a form the server asks
        for (default: ask at a terminal, else the console offers none)

global options:
  --config PATH      the rag-mcp.json to use (else RAG_MCP_CONFIG, the app's files, the demo)
  --json             machine-readable output on stdout; progress and warnings stay on stderr
  --user ID          act as this user id (default: the active profile's)
  --tags JSON_ARRAY  session tags of the acting user, e.g. '["department:legal"]'
  --human-uid ID     the acting user's human uid
  --timeout MS       time budget per server (connect and call)

exit codes: 0 all good, 1 something failed, 2 usage, 3 invalid config, 4 nothing reachable`
