import type { Page } from '@playwright/test'
import type { Result } from 'axe-core'
import { auditViolations, builderViolations } from './axe'
import { expect, test } from './console'

/**
 * The audit every a11y check runs (`auditViolations`: axe-core put into the page once) finds
 * what `@axe-core/playwright` finds, on a page with planted WCAG violations, whole or in part,
 * light or dark, and after a reload takes axe away.
 */

const PLANTED = `<!doctype html>
<html lang="en">
  <head>
    <title>Planted</title>
    <style>
      .faint { color: #bbb; background: #fff; }
      @media (prefers-color-scheme: dark) { .dim { color: #333; background: #222; } }
    </style>
  </head>
  <body>
    <main>
      <h1>Planted violations</h1>
      <p class="faint">Grey on white, too faint.</p>
      <p class="dim">Dark grey on black in the dark.</p>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" />
      <button></button>
      <dialog open><input type="text" /><p>A field without a label.</p></dialog>
    </main>
  </body>
</html>`

/** Each violation as its rule and the elements it names, in a stable order. */
const findings = (violations: Result[]) =>
  violations
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    )
    .sort()

async function bothAudits(page: Page, include?: string) {
  const fast = await auditViolations(page, include)
  const builder = await builderViolations(page, include)
  return { fast: findings(fast), builder: findings(builder) }
}

test('the audit finds what @axe-core/playwright finds, light and dark, whole page and a dialog', async ({
  page,
}) => {
  await page.setContent(PLANTED)
  await page.emulateMedia({ colorScheme: 'light' })
  const light = await bothAudits(page)
  expect(light.fast).toEqual(light.builder)
  expect(light.fast).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^button-name: button$/),
      expect.stringMatching(/^color-contrast: \.faint$/),
      expect.stringMatching(/^image-alt: img$/),
      expect.stringMatching(/^label: /),
    ]),
  )

  await page.emulateMedia({ colorScheme: 'dark' })
  const dark = await bothAudits(page)
  expect(dark.fast).toEqual(dark.builder)
  expect(dark.fast).toContainEqual(expect.stringMatching(/^color-contrast: .*\.dim/))

  const dialog = await bothAudits(page, 'dialog[open]')
  expect(dialog.fast).toEqual(dialog.builder)
  expect(dialog.fast).toEqual(['label: input'])

  // A reload takes axe out of the page; the next audit puts it back.
  await page.reload()
  await page.setContent(PLANTED.replace('<button></button>', '<button>Named</button>'))
  const again = await bothAudits(page)
  expect(again.fast).toEqual(again.builder)
  expect(again.fast.some((finding) => finding.startsWith('button-name'))).toBe(false)
})
