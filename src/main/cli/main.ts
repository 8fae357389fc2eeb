#!/usr/bin/env node
import { toErrorInfo } from '../../shared/errors'
import { parseInvocation, type CommandName } from './args'
import { callCommand } from './commands/call'
import { discoverCommand } from './commands/discover'
import { infoCommand } from './commands/info'
import { promptsCommand, resourcesCommand, toolsCommand } from './commands/inspect'
import { searchCommand, synthesizeCommand } from './commands/search'
import { secretsCommand } from './commands/secrets'
import { serversCommand } from './commands/servers'
import { verifyCommand } from './commands/verify'
import { watchCommand } from './commands/watch'
import type { CliContext } from './context'
import { EXIT, UsageError, type ExitCode } from './exit-codes'
import { Output } from './output'
import { USAGE } from './usage'

const COMMANDS: Record<
  CommandName,
  (ctx: CliContext, words: string[], options: never) => Promise<ExitCode>
> = {
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
}

/** Runs one command line; resolves with the exit code. */
async function run(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<ExitCode> {
  const out = new Output(argv.includes('--json'))
  try {
    const invocation = parseInvocation(argv)
    if (invocation.help) {
      process.stdout.write(`${USAGE}\n`)
      return EXIT.ok
    }
    if (!invocation.command) throw new UsageError('no command given')
    const ctx: CliContext = { global: invocation.global, out, env }
    const command = COMMANDS[invocation.command] as (
      ctx: CliContext,
      words: string[],
      options: typeof invocation.options,
    ) => Promise<ExitCode>
    return await command(ctx, invocation.words, invocation.options)
  } catch (error) {
    const info = toErrorInfo(error)
    out.error({ code: info.code, message: info.message })
    if (error instanceof UsageError) {
      if (!out.json) process.stderr.write(`\n${USAGE}\n`)
      return EXIT.usage
    }
    return EXIT.failed
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`rag-console: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(EXIT.failed)
  },
)
