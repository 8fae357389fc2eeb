import { createCore } from '../core/core'

const USAGE = `usage: rag-console [--config PATH] [--json] <command>

commands:
  info      where the console looks for its registry and data`

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json')
  const configIndex = argv.indexOf('--config')
  const configPath = configIndex >= 0 ? argv[configIndex + 1] : undefined
  const command = argv.filter((arg, i) => !arg.startsWith('--') && argv[i - 1] !== '--config')[0]
  if (command !== 'info') {
    process.stderr.write(`${USAGE}\n`)
    return 2
  }
  const core = await createCore(configPath ? { configPath } : {})
  try {
    const info = core.info()
    process.stdout.write(
      json
        ? `${JSON.stringify(info)}\n`
        : `${info.productName} ${info.version}\nregistry: ${info.registry.label}\n`,
    )
    return 0
  } finally {
    await core.dispose()
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`rag-console: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  },
)
