import { appendFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './console'

/** The rules of WCAG 2.0 and 2.1, levels A and AA. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

export interface AxeOptions {
  /** A CSS selector: audit only this part of the page (a dialog, say). Default: the whole page. */
  include?: string
  /** The colour schemes to audit in. Default: light and dark. */
  schemes?: ('light' | 'dark')[]
}

/**
 * Runs axe-core (WCAG 2.1 A and AA rules) on the page as it is now, once per colour scheme, and
 * fails the test (softly, so one test can audit many states) on any serious or critical
 * violation, naming `context`, the rule, and the elements. The colour scheme is put back after.
 */
export async function expectNoAxeViolations(
  page: Page,
  context: string,
  options: AxeOptions = {},
): Promise<void> {
  const wasDark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)
  // Every serious or critical finding, one JSON line each, in the test's output folder.
  const report = test.info().outputPath('axe.jsonl')
  for (const scheme of options.schemes ?? ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme })
    // Only violations come back: passes and incomplete results are large and unused here.
    let builder = new AxeBuilder({ page })
      .withTags(WCAG_21_AA)
      .options({ resultTypes: ['violations'] })
    if (options.include) builder = builder.include(options.include)
    const { violations } = await builder.analyze()
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    for (const violation of serious) {
      appendFileSync(
        report,
        `${JSON.stringify({
          context,
          scheme,
          rule: violation.id,
          impact: violation.impact,
          elements: violation.nodes.length,
          nodes: violation.nodes.map((node) => ({
            target: node.target.join(' '),
            summary: node.failureSummary,
          })),
        })}\n`,
      )
    }
    expect
      .soft(
        serious.map((violation) => ({
          rule: `${violation.id} (${violation.impact}): ${violation.help}`,
          elements: violation.nodes.map(
            (node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n')[1]?.trim()}`,
          ),
        })),
        `axe: ${context}, ${scheme}`,
      )
      .toEqual([])
  }
  await page.emulateMedia({ colorScheme: wasDark ? 'dark' : 'light' })
}
