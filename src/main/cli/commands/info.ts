import { openCore, registryProblems, reportInvalidConfig, type CliContext } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'

/** `info`: the version, where the registry comes from and where data is kept. */
export async function infoCommand(ctx: CliContext): Promise<ExitCode> {
  const core = await openCore(ctx)
  try {
    const info = core.info()
    if (ctx.out.json) ctx.out.result(info)
    else {
      ctx.out.text(
        [
          `${info.productName} ${info.version}`,
          `registry: ${info.registry.label}`,
          ...info.registry.files.map((file) => `  file: ${file}`),
          `data: ${info.dataDir}`,
        ].join('\n'),
      )
    }
    const problems = registryProblems(ctx, core)
    return problems ? reportInvalidConfig(ctx, core, problems) : EXIT.ok
  } finally {
    await core.dispose()
  }
}
