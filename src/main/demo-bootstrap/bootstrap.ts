import type { DemoBootstrap, DemoContext } from '#core/core'
import {
  demoProfiles,
  embeddedWithEnvKeys,
  provideDemoKeys,
  readDemoSecrets,
  readDemoUsers,
} from './demo-keys'
import { loadDemoGoldenSet } from './golden-set'

/**
 * The demo bootstrap the hosts (desktop app, browser host, CLI) hand the core: on the embedded
 * registry, a first run "views as" each demo user, the demo servers' keys go into the keychain
 * (or, without a usable keychain, through the environment for this session, with a notice), and
 * Evaluation offers the demo corpus's golden set.
 */
export function demoBootstrap(): DemoBootstrap {
  return {
    async prepare(context) {
      await seedDemoProfiles(context)
      await provideKeys(context)
    },
    goldenSet: () => loadDemoGoldenSet(),
  }
}

/** First run on the demo: "view as" each demo user, starting as the one who sees everything. */
async function seedDemoProfiles(context: DemoContext): Promise<void> {
  if (!context.settings.isFresh()) return
  try {
    const { profiles, activeId } = demoProfiles(await readDemoUsers())
    context.settings.seedProfiles(profiles, activeId)
  } catch (error) {
    context.log.warn('could not read the demo users; starting with the default profile only', {
      error,
    })
  }
}

/** The demo servers' keys, in the keychain or, without one, in the core's environment. */
async function provideKeys(context: DemoContext): Promise<void> {
  try {
    const secrets = await readDemoSecrets()
    const plan = await provideDemoKeys({ ...context, secrets })
    if (plan.via === 'env') {
      context.readEmbeddedWith(embeddedWithEnvKeys(secrets))
      context.notice(
        'warning',
        "No usable keychain: the demo servers' keys are passed through environment variables, for this session only.",
        {
          id: 'keychain-unavailable',
          detail: `Why: ${plan.reason}. Once a keychain runs, restart the console: the demo keys go there, and keys of your own servers in Config → Secrets.`,
        },
      )
    }
  } catch (error) {
    context.log.warn('could not prepare the demo keys', { error })
    context.notice(
      'warning',
      `The demo servers' keys could not be prepared (${error instanceof Error ? error.message : String(error)}); the keyed demo servers will ask for their keys.`,
    )
  }
}
