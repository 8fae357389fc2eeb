import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { GoldenSet } from '#shared/model/evaluation'
import { appRoot } from '#core/app-root'
import { parseGoldenSet } from '#core/services/eval/set-store'

/** The golden set of the demo corpus, shipped beside the embedded registry. */
export const demoGoldenSetFile = (): string =>
  join(appRoot(), 'resources', 'eval', 'demo-golden-set.json')

/** The demo golden set; undefined when this build ships none (or it cannot be read). */
export function loadDemoGoldenSet(file = demoGoldenSetFile()): GoldenSet | undefined {
  try {
    return parseGoldenSet(readFileSync(file, 'utf8'), 'the demo golden set')
  } catch {
    return undefined
  }
}
