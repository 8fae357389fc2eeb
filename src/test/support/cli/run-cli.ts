import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RAG_SEARCH_API_KEY, RAGBOX_KEYS } from '#demo/keys'
import { demoScript, type DemoProcess } from '../demo/programs'
import { builtFile } from '../process/built'
import { SAFETY_NET_MS } from '../process/limits'
import { eachLine } from '../process/start-child'

/** What one run of the built CLI did. */
export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

export interface RunOptions {
  /** Added to a clean environment (PATH, HOME, and a private RAG_CONSOLE_HOME). */
  env?: NodeJS.ProcessEnv
  /** Written to stdin, then stdin is closed. */
  input?: string
  /** The run is killed past this (default: the safety net). */
  timeoutMs?: number
}

/** A private data folder per test file, so runs never touch the user's settings or keychain. */
export function cliHome(): string {
  return mkdtempSync(join(tmpdir(), 'rc-cli-'))
}

/** The environment a CLI child gets: nothing from the developer's registry or data folder. */
export function cliEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, RAG_CONSOLE_HOME: home, ...extra }
  delete env.RAG_MCP_CONFIG
  return env
}

/** Starts `node out/main/cli.js …args` (refuses a stale build). */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [builtFile('main/cli.js'), ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
}

/** Parses every line `stream` prints as JSON into `lines` (`--json watch`, `monitor`). */
export function collectJsonLines(
  stream: NodeJS.ReadableStream,
  lines: Record<string, unknown>[],
): void {
  eachLine(stream, (line) => lines.push(JSON.parse(line) as Record<string, unknown>))
}

/** Runs the built CLI to its end (killed past the deadline) and collects its output. */
export function runCli(args: string[], home: string, options: RunOptions = {}): Promise<CliRun> {
  return collect(spawnCli(args, cliEnv(home, options.env)), args, options)
}

function collect(child: ChildProcess, args: string[], options: RunOptions): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  child.stdin!.end(options.input ?? '')
  const timeoutMs = options.timeoutMs ?? SAFETY_NET_MS
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(
        new Error(`rag-console ${args.join(' ')}: still running after ${timeoutMs} ms\n${stderr}`),
      )
    }, timeoutMs)
    child.once('error', reject)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** Parses a `--json` run's stdout, failing with its stderr when it is not JSON. */
export function json<T = Record<string, unknown>>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`)
  }
}

/** The URL a `demo.js all` process printed for one program. */
export function demoUrl(demo: DemoProcess, program: string): string {
  const line = demo.output.find((l) => l.startsWith(`${program} `))
  const url = line && /(http:\/\/\S+)/.exec(line)?.[1]
  if (!url) throw new Error(`demo printed no URL for ${program}:\n${demo.output.join('\n')}`)
  return url
}

/** Environment variables the demo registry's `${env:…}` references read. */
export const DEMO_KEY_ENV = {
  CLI_TEST_RAG_SEARCH_KEY: RAG_SEARCH_API_KEY,
  CLI_TEST_RAGBOX_KEY: RAGBOX_KEYS.acme,
}

/**
 * A registry of every demo family started by `demo.js all --port-base 0`: rag-search and RAGbox
 * over HTTP (keys from the environment), rag-tools-v1 over stdio and SSE, VTEX.
 */
export function demoRegistry(demo: DemoProcess): Record<string, unknown> {
  const docs = demoUrl(demo, 'doc-host')
  return {
    knowledgeSearch: {
      url: demoUrl(demo, 'rag-search'),
      headers: { Authorization: 'Bearer ${env:CLI_TEST_RAG_SEARCH_KEY}' },
      dialect: 'rag-search',
      timeoutMs: SAFETY_NET_MS,
    },
    companyDocs: {
      command: process.execPath,
      args: [demoScript(), 'rag-tools-v1', '--stdio', '--doc-host', docs],
      timeoutMs: SAFETY_NET_MS,
    },
    engineeringWiki: { url: demoUrl(demo, 'rag-tools-v1'), timeoutMs: SAFETY_NET_MS },
    documentVault: {
      url: demoUrl(demo, 'ragbox'),
      headers: { 'X-API-Key': '${env:CLI_TEST_RAGBOX_KEY}' },
      timeoutMs: SAFETY_NET_MS,
    },
    productCatalog: { url: demoUrl(demo, 'vtex'), dialect: 'vtex', timeoutMs: SAFETY_NET_MS },
  }
}

/** Writes a registry file into `dir` and returns its path. */
export function writeRegistry(dir: string, registry: object, name = 'rag-mcp.json'): string {
  const path = join(dir, name)
  writeFileSync(path, `${JSON.stringify(registry, null, 2)}\n`)
  return path
}

/**
 * Runs the built CLI with its stdout piped (by bash) into `reader`: by default a second Node
 * process that starts reading only after 300 ms, as a slow `jq` would, and copies what it got
 * to this process. `code` is the CLI's own exit status.
 */
export function runCliThroughPipe(
  args: string[],
  home: string,
  options: RunOptions & { reader?: string } = {},
): Promise<CliRun> {
  const slowCopy = `"$NODE" -e 'setTimeout(() => process.stdin.pipe(process.stdout), 300)'`
  const script = `"$NODE" "$CLI" "$@" | ${options.reader ?? slowCopy}; exit "\${PIPESTATUS[0]}"`
  const env = cliEnv(home, {
    ...options.env,
    NODE: process.execPath,
    CLI: builtFile('main/cli.js'),
  })
  return collect(spawn('bash', ['-c', script, 'rag-console', ...args], { env }), args, options)
}

/** Every line of the audit log under a CLI home so far, parsed. */
export function auditLines(home: string): Record<string, unknown>[] {
  const files = readdirSync(home, { recursive: true, encoding: 'utf8' })
  const file = files.find((name) => name.endsWith('audit.jsonl'))
  if (!file) return []
  const text = readFileSync(join(home, file), 'utf8').trim()
  return text ? text.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) : []
}
