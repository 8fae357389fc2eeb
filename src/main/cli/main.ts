import { toErrorInfo } from '#shared/errors'
import { parseInvocation, type CommandCall } from './args'
import type { CommandName, CommandOptions } from './command-table'
import { authCommand } from './commands/auth'
import { callCommand } from './commands/call'
import { discoverCommand } from './commands/discover'
import { doctorCommand } from './commands/doctor'
import { evalCommand } from './commands/eval'
import { importCommand } from './commands/import'
import { infoCommand } from './commands/info'
import { mapCommand } from './commands/map'
import { monitorCommand } from './commands/monitor'
import { promptsCommand, resourcesCommand, toolsCommand } from './commands/inspect'
import { searchCommand, synthesizeCommand } from './commands/search'
import { secretsCommand } from './commands/secrets'
import { serversCommand } from './commands/servers'
import { verifyCommand } from './commands/verify'
import { watchCommand } from './commands/watch'
import type { CliContext } from './context'
import { EXIT, UsageError, type ExitCode } from './exit-codes'
import { Output } from './output'
import { usage } from './usage'

type Handler<C extends CommandName> = (
  ctx: CliContext,
  words: string[],
  options: CommandOptions<C>,
) => Promise<ExitCode>

const HANDLERS: { [C in CommandName]: Handler<C> } = {
  info: infoCommand,
  servers: serversCommand,
  discover: discoverCommand,
  search: searchCommand,
  synthesize: synthesizeCommand,
  verify: verifyCommand,
  call: callCommand,
  tools: toolsCommand,
  resources: resourcesCommand,
  prompts: promptsCommand,
  watch: watchCommand,
  secrets: secretsCommand,
  doctor: doctorCommand,
  monitor: monitorCommand,
  eval: evalCommand,
  auth: authCommand,
  map: mapCommand,
  import: importCommand,
}

function dispatch<C extends CommandName>(ctx: CliContext, call: CommandCall<C>): Promise<ExitCode> {
  const handler: Handler<C> = HANDLERS[call.command]
  return handler(ctx, call.words, call.options)
}

/** Runs one command line; resolves with the exit code. */
async function run(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<ExitCode> {
  const out = new Output(argv.includes('--json'))
  try {
    const invocation = parseInvocation(argv)
    if (invocation.help) {
      process.stdout.write(`${usage(invocation.call?.command)}\n`)
      return EXIT.ok
    }
    if (!invocation.call) throw new UsageError('no command given')
    return await dispatch({ global: invocation.global, out, env }, invocation.call)
  } catch (error) {
    const info = toErrorInfo(error)
    out.error({ code: info.code, message: info.message })
    if (error instanceof UsageError) {
      if (!out.json) process.stderr.write(`\n${usage()}\n`)
      return EXIT.usage
    }
    return EXIT.failed
  }
}

/**
 * Resolves once everything written to `stream` so far has reached the OS. A pipe to a slow
 * reader (`| jq`) holds only 64 KiB: exiting before this would cut the output there.
 */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve()
    stream.write('', () => resolve())
  })
}

async function main(): Promise<void> {
  const outcome = run(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`rag-console: ${error instanceof Error ? error.message : String(error)}\n`)
    return EXIT.failed
  })
  // A reader that stops early (`| head`) closes the pipe: nothing more can be delivered, so
  // the command ends with its own exit code instead of an unhandled EPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    void outcome.then((code) => process.exit(code))
  })
  process.exitCode = await outcome
  await Promise.all([drained(process.stdout), drained(process.stderr)])
  // Once the output is out, nothing left behind (a server's lingering socket) may hold the
  // process: exit with the code set above.
  process.exit()
}

void main()
