import {
  COMMANDS,
  GLOBAL_OPTIONS,
  TARGET_OPTIONS,
  placeholderOf,
  type CommandName,
  type CommandSpec,
  type OptionSpec,
} from './command-table'

/** The usage text is made from the command table; this is its layout. */
const WIDTH = 100
const SUMMARY_COLUMN = 41
const OPTION_COLUMN = 30

type Options = CommandSpec['options']

/** `rag-console --help` (no command), and what a usage error prints; else one command's help. */
export function usage(command?: CommandName): string {
  return command === undefined ? overview() : commandHelp(command)
}

function overview(): string {
  const lines = [
    ...hanging('usage: rag-console ', [...words(GLOBAL_OPTIONS), '<command>', '[options]']),
    `       rag-console <command> --help     that command's options`,
    '',
    'commands:',
  ]
  for (const [name, spec] of Object.entries(COMMANDS)) {
    const synopsis = hanging(`  ${name} `, synopsisWords(spec, true))
    const summary = wrap(spec.summary, WIDTH - SUMMARY_COLUMN)
    const last = synopsis.at(-1)!
    if (synopsis.length === 1 && last.length < SUMMARY_COLUMN - 1) {
      lines.push(last.padEnd(SUMMARY_COLUMN) + summary[0], ...indent(summary.slice(1)))
    } else {
      lines.push(...synopsis, ...indent(summary))
    }
  }
  lines.push(
    '',
    'TARGET, the server call, tools, resources and prompts talk to: exactly one of --server,',
    '--url and --stdio:',
    ...optionLines(TARGET_OPTIONS),
    '',
    'global options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    'exit codes: 0 all good, 1 something failed, 2 usage, 3 invalid config, 4 nothing reachable',
  )
  return lines.join('\n')
}

function commandHelp(command: CommandName): string {
  const spec: CommandSpec = COMMANDS[command]
  const lines = [
    ...hanging(`usage: rag-console ${command} `, synopsisWords(spec, false)),
    '',
    ...wrap(spec.summary, WIDTH),
    '',
    ...spec.args.map((arg) => row(arg.name, arg.description)).flat(),
    ...optionLines(spec.options),
    '',
    'global options: rag-console --help',
  ]
  return lines.join('\n')
}

/** The words of a command's synopsis: its arguments, then its options (TARGET as one word). */
function synopsisWords(spec: CommandSpec, abbreviate: boolean): string[] {
  const options = Object.entries(spec.options)
  const target =
    abbreviate && Object.entries(TARGET_OPTIONS).every(([name, s]) => spec.options[name] === s)
  const own = target ? options.filter(([name]) => !(name in TARGET_OPTIONS)) : options
  return [
    ...spec.args.map((arg) => arg.name),
    ...(target ? ['TARGET'] : []),
    ...own.map(([name, s]) => synopsisOf(name, s)),
  ]
}

function words(options: Options): string[] {
  return Object.entries(options)
    .filter(([name]) => name !== 'help')
    .map(([name, spec]) => synopsisOf(name, spec))
}

/** `--top-k N` as a synopsis shows it: `[--top-k N]`, `[--server ID]...`, `--tool NAME`. */
function synopsisOf(name: string, spec: OptionSpec): string {
  const flag = spec.short ? `-${spec.short}|--${name}` : `--${name}`
  if (spec.type === 'boolean') return `[${flag}]`
  const text = `${flag} ${placeholderOf(spec)}`
  const required = 'required' in spec && spec.required === true
  return `${required ? text : `[${text}]`}${repeats(spec) ? '...' : ''}`
}

function repeats(spec: OptionSpec): boolean {
  return spec.type === 'list' && spec.once !== true
}

function optionLines(options: Options): string[] {
  return Object.entries(options).flatMap(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}`
    const label = spec.type === 'boolean' ? flag : `${flag} ${placeholderOf(spec)}`
    const repeat = repeats(spec) && !/repeatable/.test(spec.description)
    const extra = [
      ...(repeat ? ['repeatable'] : []),
      ...(spec.type === 'number' ? [`${spec.min} to ${spec.max}`] : []),
      ...(spec.type !== 'boolean' && spec.default !== undefined
        ? [`default ${String(spec.default)}`]
        : []),
    ]
    return row(
      label,
      extra.length > 0 ? `${spec.description}; ${extra.join(', ')}` : spec.description,
    )
  })
}

/** `  LABEL   description`, the description wrapped in its column (below a long label). */
function row(label: string, description: string): string[] {
  const text = wrap(description, WIDTH - OPTION_COLUMN)
  const head = `  ${label}`
  if (head.length < OPTION_COLUMN - 1) {
    return [head.padEnd(OPTION_COLUMN) + text[0], ...pad(text.slice(1), OPTION_COLUMN)]
  }
  return [head, ...pad(text, OPTION_COLUMN)]
}

/** Words after `head`, wrapped; the lines after the first start under the first word. */
function hanging(head: string, items: string[]): string[] {
  const lines: string[] = []
  let line = head.trimEnd()
  for (const item of items) {
    if (line.length + 1 + item.length > WIDTH && line.trim() !== head.trim()) {
      lines.push(line)
      line = ' '.repeat(head.length - 1)
    }
    line += ` ${item}`
  }
  return [...lines, line]
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  return [...lines, line]
}

function indent(lines: string[]): string[] {
  return pad(lines, SUMMARY_COLUMN)
}

function pad(lines: string[], column: number): string[] {
  return lines.map((line) => ' '.repeat(column) + line)
}
