import { registryProblems, reportInvalidConfig, withCore, type CliContext } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'

/**
 * `info`: the version, where the registry comes from and where data is kept; exits 3 (after
 * printing) when the registry is invalid, so CI can use it as a validator.
 */
export function infoCommand(ctx: CliContext): Promise<ExitCode> {
  return withCore(ctx, { registry: false }, async (core) => {
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
  })
}
