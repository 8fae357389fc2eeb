import type { ErrorInfo } from '#shared/errors'
import type { SecretRedactor } from '#core/secrets/redactor'

/** An error as the CLI prints it: the pool's string code and the actionable message. */
export interface CliError {
  code: string
  message: string
}

/** `{code, message}` of an error, or null. */
export function errorJson(error: ErrorInfo | undefined): CliError | null {
  return error ? { code: error.code, message: error.message } : null
}

/** Where a command writes: stdout for its result, stderr for progress and warnings. */
export interface OutputStreams {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

/**
 * The CLI's output. `--json` results go to stdout as one JSON document (or one object per line
 * for `watch`); tables go to stdout otherwise; progress and warnings always go to stderr.
 * Everything passes through the redactor first: results lose every secret the console knows
 * (their text is otherwise printed as it is, as IPC does); warnings and errors also lose
 * credential-shaped text (`Authorization: …`, `Bearer …`).
 */
export class Output {
  private redactor: SecretRedactor | undefined

  constructor(
    readonly json: boolean,
    private readonly streams: OutputStreams = process,
  ) {}

  /** Redacts what is printed from now on (set once the core, and its redactor, exist). */
  useRedactor(redactor: SecretRedactor): void {
    this.redactor = redactor
  }

  /** The command's result as one JSON document. */
  result(value: unknown): void {
    this.streams.stdout.write(`${JSON.stringify(this.values(value), null, 2)}\n`)
  }

  /** One JSON object on its own line (`watch`). */
  line(value: unknown): void {
    this.streams.stdout.write(`${JSON.stringify(this.values(value))}\n`)
  }

  /** Readable text for a person (without `--json`). */
  text(text: string): void {
    this.streams.stdout.write(this.values(text.endsWith('\n') ? text : `${text}\n`))
  }

  /** A warning on stderr. */
  warn(message: string): void {
    this.streams.stderr.write(this.redact(`warning: ${message}\n`))
  }

  /** A progress note on stderr. */
  progress(message: string): void {
    this.streams.stderr.write(this.redact(`${message}\n`))
  }

  /** A failure: `{"error": {code, message}}` on stdout with `--json`, else a line on stderr. */
  error(error: CliError, extra: Record<string, unknown> = {}): void {
    if (this.json) this.result(this.redact({ error, ...extra }))
    else this.streams.stderr.write(this.redact(`rag-console: ${error.message}\n`))
  }

  private redact<T>(value: T): T {
    return this.redactor ? this.redactor.redact(value) : value
  }

  private values<T>(value: T): T {
    return this.redactor ? this.redactor.redactValues(value) : value
  }
}

/** One column of a table: its header and how to read a row's cell. */
export interface Column<T> {
  header: string
  cell: (row: T) => string | number | null | undefined
  /** Longer cells are cut with "…" (default 48). */
  max?: number
  align?: 'left' | 'right'
}

/** Rows as an aligned plain-text table (one line per row, a header line first). */
export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) =>
    columns.map((column) => fit(cellText(column.cell(row)), column.max ?? 48)),
  )
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((line) => line[i]!.length)),
  )
  const render = (line: string[]): string =>
    line
      .map((text, i) =>
        columns[i]!.align === 'right' ? text.padStart(widths[i]!) : text.padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd()
  return [render(columns.map((c) => c.header)), ...cells.map(render)].join('\n')
}

function cellText(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-'
  return String(value).replace(/\s+/g, ' ').trim()
}

function fit(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** `12 ms`, or `-` when unknown. */
export function ms(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : `${Math.round(value)} ms`
}
