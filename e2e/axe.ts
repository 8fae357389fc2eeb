import { appendFileSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import type { AxeResults, ElementContext, Result, RunOptions } from 'axe-core'
import { expect, test } from './console'

/** The rules of WCAG 2.0 and 2.1, levels A and AA. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/** axe-core's browser build, put into a page once per page load (see {@link auditViolations}). */
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

/**
 * axe-core's violations of WCAG 2.1 A and AA on the page as it is now, in `include` (a CSS
 * selector) or the whole page.
 *
 * A page without frames is audited by axe-core put into it once per page load, then
 * `axe.run` per audit: a quarter of the time `AxeBuilder.analyze` takes, which puts axe into
 * every frame and opens a blank page to merge their results on every call. A page with frames
 * (an HTML artifact's sandboxed preview) goes through `AxeBuilder`, which reaches into them.
 * `e2e/axe.spec.ts` holds the two to the same findings.
 */
export async function auditViolations(page: Page, include?: string): Promise<Result[]> {
  if (page.frames().length > 1) return builderViolations(page, include)
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE)
  return page.evaluate(
    async ({ include, tags }) => {
      const { axe } = window as unknown as {
        axe: { run: (context: ElementContext, options: RunOptions) => Promise<AxeResults> }
      }
      const results = await axe.run(include ?? document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      })
      return results.violations
    },
    { include, tags: WCAG_21_AA },
  )
}

/** The same audit through `@axe-core/playwright`, frames included. */
export async function builderViolations(page: Page, include?: string): Promise<Result[]> {
  // Only violations come back: passes and incomplete results are large and unused here.
  let builder = new AxeBuilder({ page })
    .withTags(WCAG_21_AA)
    .options({ resultTypes: ['violations'] })
  if (include) builder = builder.include(include)
  return (await builder.analyze()).violations
}

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
    const violations = await auditViolations(page, options.include)
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
