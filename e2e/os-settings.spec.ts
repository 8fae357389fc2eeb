import type { Locator, Page } from '@playwright/test'
import { expect, test } from './console'
import {
  actAsCarol,
  dataDirWithDemoSet,
  demoRegistry,
  runGoldenSet,
  saveDemoUsers,
  slowServer,
  useDemoServers,
} from './demo'
import { expectColumnsFit } from './columns'
import { expectFocusVisible } from './focus'
import { screenshot } from './host'

/**
 * The OS settings a person may depend on: reduced motion, forced colors (Windows high contrast)
 * and 200 % zoom. Screenshots land in e2e/screenshots/ (os-*.png) to be looked at.
 */

const demo = useDemoServers()

const nav = (page: Page, panel: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: panel }).click()

/** Animations and transitions anywhere in the page, shadow roots included (running or declared). */
const motion = (page: Page) =>
  page.evaluate(() => {
    const moving: string[] = []
    const elements: Element[] = []
    const collect = (root: Document | ShadowRoot): void => {
      for (const element of root.querySelectorAll('*')) {
        elements.push(element)
        if (element.shadowRoot) collect(element.shadowRoot)
      }
    }
    collect(document)
    for (const animation of document.getAnimations()) {
      moving.push(`running: ${(animation as CSSAnimation).animationName ?? 'transition'}`)
    }
    for (const element of elements) {
      const style = getComputedStyle(element)
      const longest = (list: string) => Math.max(...list.split(',').map((d) => parseFloat(d)))
      if (style.animationName !== 'none' && longest(style.animationDuration) > 0) {
        moving.push(`animation ${style.animationName} on ${element.className}`)
      }
      if (longest(style.transitionDuration) > 0) {
        moving.push(`transition ${style.transitionProperty} on ${element.className}`)
      }
    }
    return moving
  })

test('with reduced motion nothing moves: no spinning, no transitions', async ({ page, launch }) => {
  const { host } = await launch({ fast: slowServer('fast', 0), slow: slowServer('slow', 60_000) })
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.goto(host.url)
  // Both connected first: a search leaves out a server still connecting.
  for (const server of ['fast', 'slow']) {
    await expect(page.getByRole('region', { name: server })).toContainText('ready')
  }
  await nav(page, 'Search')
  await page.getByLabel('Query').fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')
  const waterfall = page.getByRole('table', { name: 'Latency by server' })
  await expect(waterfall.getByRole('row', { name: 'slow' })).toContainText('waiting')
  // Spinners are on the page (the waterfall's "waiting", the merge), and still.
  await expect(page.locator('.ui-spinner').first()).toBeVisible()
  expect(await motion(page)).toEqual([])
  await page.getByRole('button', { name: 'Cancel' }).click()

  await nav(page, 'Servers')
  await page.getByRole('switch', { name: 'Enabled fast' }).click()
  await expect(page.getByRole('switch', { name: 'Enabled fast' })).not.toBeChecked()
  expect(await motion(page)).toEqual([])

  // The config editor's caret does not blink either.
  await nav(page, 'Config')
  await page.getByRole('textbox', { name: 'rag-mcp.json' }).focus()
  await expect(page.locator('.app__main')).toBeVisible()
  expect(await motion(page)).toEqual([])

  // Without the setting, the same page does move (the caret blinks): the checks above can fail.
  await page.emulateMedia({ reducedMotion: 'no-preference' })
  await expect.poll(() => motion(page)).not.toEqual([])
})

/**
 * The colour an element shows as its background: its own fill, or the first fill behind it
 * (forced colors resolve fills to system colours; a transparent one shows what is under it).
 */
const fill = (locator: Locator) =>
  locator.evaluate((element) => {
    for (let at: Element | null = element; at; at = at.parentElement) {
      const color = getComputedStyle(at).backgroundColor
      if (!/^rgba\(.*, 0\)$|^transparent$/.test(color)) return color
    }
    return 'none'
  })

/** Fails when `chosen` is painted like `other`: a state told by nothing but a lost fill. */
async function expectStandsOut(chosen: Locator, other: Locator, what: string): Promise<void> {
  expect.soft(await fill(chosen), `${what} stands out in forced colors`).not.toBe(await fill(other))
}

test('in forced colors (high contrast) borders, focus, selection and status stay visible', async ({
  page,
  launch,
}) => {
  test.setTimeout(240_000)
  const { host } = await launch(demoRegistry(demo()), {
    env: { ...demo().env, RAG_CONSOLE_HOME: dataDirWithDemoSet() },
  })
  await page.emulateMedia({ forcedColors: 'active', colorScheme: 'dark' })
  await page.goto(host.url)
  await actAsCarol(page)
  await saveDemoUsers(page)
  await page.getByRole('button', { name: 'Dismiss notification' }).click()
  const shot = (name: string) => screenshot(page, `os-forced-colors-${name}`)
  const navigation = page.getByRole('navigation', { name: 'Main' })

  const card = page.getByRole('region', { name: 'knowledgeSearch', exact: true })
  await expect(card).toContainText('ready')
  await expectStandsOut(
    navigation.getByRole('button', { name: 'Servers' }),
    navigation.getByRole('button', { name: 'Search' }),
    'the current panel',
  )
  await expectStandsOut(
    card.getByRole('switch', { name: 'Enabled knowledgeSearch' }).locator('.ui-toggle__track'),
    page.getByRole('switch', { name: 'Only needing attention' }).locator('.ui-toggle__track'),
    'a switch that is on',
  )
  const badge = card.getByText('ready', { exact: true })
  expect
    .soft(
      await badge.evaluate((el) => getComputedStyle(el).borderTopStyle),
      'a badge keeps its edge',
    )
    .toBe('solid')
  await card.getByRole('button', { name: 'Reconnect knowledgeSearch' }).focus()
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Tab')
  await expectFocusVisible(page)
  await shot('servers')

  await nav(page, 'Search')
  await page.getByRole('combobox', { name: 'Judge into' }).selectOption({ label: 'Demo corpus' })
  await page.getByLabel('Query').fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')
  const hits = page.getByRole('listbox', { name: 'Merged hits' })
  await hits.getByRole('option').first().click()
  await page.keyboard.press('2')
  await page.keyboard.press('ArrowDown')
  const grade = hits.getByRole('option').first().getByRole('radio', { name: 'highly relevant' })
  await expect(grade).toBeChecked()
  const selected = hits.getByRole('option', { selected: true })
  await expectStandsOut(selected, hits.getByRole('option').first(), 'the selected hit')
  await expectStandsOut(
    grade,
    hits.getByRole('option').first().getByRole('radio', { name: 'perfect' }),
    'a chosen grade',
  )
  await expectStandsOut(
    page.getByRole('tab', { name: /^Merged/ }),
    page.getByRole('tab', { name: /^By provider/ }),
    'the selected tab',
  )
  const bar = page
    .getByRole('table', { name: 'Latency by server' })
    .getByRole('row', { name: 'knowledgeSearch' })
    .locator('.waterfall__bar')
  await expect(bar).toBeVisible()
  expect
    .soft(await fill(bar), 'a latency bar keeps its ink')
    .not.toBe(await fill(page.locator('body')))
  await shot('search')

  await nav(page, 'Access')
  const form = page.getByRole('form', { name: 'Check access' })
  await form.getByLabel('Server').selectOption('knowledgeSearch')
  await form.getByLabel('Segment id').fill('hb-pto-policy#0')
  await form.getByLabel('Segment id').press('Enter')
  await expect(page.getByRole('region', { name: 'Verdict' })).toContainText('carol@example.com')
  await shot('access')

  await nav(page, 'Health')
  await expect(page.getByRole('region', { name: 'Health of knowledgeSearch' })).toBeVisible()
  await shot('health')

  await nav(page, 'Config')
  await page.getByRole('textbox', { name: 'rag-mcp.json' }).focus()
  await expectFocusVisible(page)
  await shot('config')

  await nav(page, 'Evaluation')
  const evaluation = page.getByRole('main', { name: 'Evaluation' })
  await evaluation.getByRole('tab', { name: /^Runs/ }).click()
  await runGoldenSet(page, 1)
  await expect(evaluation.getByRole('table', { name: 'Metrics' })).toBeVisible()
  await shot('evaluation')
  await page.getByRole('button', { name: 'Manage profiles' }).click()
  await shot('dialog')
})

/**
 * The page reflows (WCAG 1.4.10): neither the window nor the panel scrolls sideways (wide tables
 * scroll inside their own boxes), no header, title, tab or short label is cut, and every select
 * shows its whole choice.
 */
async function expectReflows(page: Page, where: string): Promise<void> {
  // Settled layout: a table measuring its rows may be wider for a frame.
  await expect
    .configure({ soft: true })
    .poll(
      () =>
        page.evaluate(() =>
          [document.documentElement, document.querySelector('.app__panel')!]
            .filter((box) => box.scrollWidth > box.clientWidth + 1)
            .map(
              (box) =>
                `${box.className || box.tagName}: ${box.scrollWidth} px in ${box.clientWidth}`,
            ),
        ),
      { message: `nothing scrolls sideways on ${where}` },
    )
    .toEqual([])
  const selects = await page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d')!
    const cut: string[] = []
    for (const select of document.querySelectorAll('select')) {
      if (select.getClientRects().length === 0 || select.closest('[hidden]')) continue
      const style = getComputedStyle(select)
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      const text = select.selectedOptions[0]?.text ?? ''
      const room =
        select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16
      if (canvas.measureText(text).width > room + 1)
        cut.push(`"${text}" in ${select.clientWidth} px`)
    }
    return cut
  })
  expect.soft(selects, `every select shows its choice on ${where}`).toEqual([])
  // Controls outside data tables fit their boxes: a form never needs sideways scrolling.
  const cutControls = await page.evaluate(() => {
    const cut: string[] = []
    const controls = document.querySelectorAll<HTMLElement>('input, select, textarea, button')
    for (const control of controls) {
      if (control.getClientRects().length === 0 || control.closest('table, [hidden]')) continue
      const box = control.getBoundingClientRect()
      let right = document.documentElement.clientWidth
      for (let at = control.parentElement; at; at = at.parentElement) {
        if (getComputedStyle(at).overflowX !== 'visible') {
          const outer = at.getBoundingClientRect()
          right = Math.min(right, outer.left + at.clientLeft + at.clientWidth)
        }
        if (at.matches('dialog:modal')) break
      }
      if (box.right > right + 1) {
        const name = control.getAttribute('aria-label') ?? control.textContent?.trim() ?? ''
        cut.push(
          `${control.tagName.toLowerCase()} "${name.slice(0, 30)}" ends ${Math.round(box.right - right)} px past its box`,
        )
      }
    }
    return cut
  })
  expect.soft(cutControls, `every control fits on ${where}`).toEqual([])
  await expectColumnsFit(page, where, { scrollable: true })
}

test.describe('zoomed to 200 %', () => {
  // Browser zoom at 200 % of a 1280×800 window: the page lays out 640×400 CSS pixels, each drawn
  // 2×2 device pixels, and media queries see 640 px, exactly as zoom does. (CSS `zoom` on the
  // root would leave media queries and viewport units at 1280 px.)
  test.use({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 })

  test('at 200 % zoom of a 1280×800 window every panel stays usable', async ({ page, launch }) => {
    test.setTimeout(240_000)
    const { host } = await launch(demoRegistry(demo()), {
      env: { ...demo().env, RAG_CONSOLE_HOME: dataDirWithDemoSet() },
    })
    await page.goto(host.url)
    await actAsCarol(page)
    await saveDemoUsers(page)
    await page.getByRole('button', { name: 'Dismiss notification' }).click()
    const check = async (name: string, where: string) => {
      await screenshot(page, `os-zoom-200-${name}`)
      await expectReflows(page, where)
    }
    await expect(page.getByRole('region', { name: 'knowledgeSearch' })).toContainText('ready')
    await check('servers', 'Servers')

    await nav(page, 'Search')
    await page.getByLabel('Query').fill('vpn setup')
    await page.keyboard.press('ControlOrMeta+Enter')
    const hits = page.getByRole('listbox', { name: 'Merged hits' })
    await expect(hits.getByRole('option').first()).toBeVisible()
    await check('search', 'Search, results')
    await hits.getByRole('option').first().click()
    const inspector = page.getByRole('complementary', { name: 'Hit inspector' })
    await expect(inspector).toBeVisible()
    await check('search-inspector', 'Search, the hit inspector')
    await page.keyboard.press('Escape')
    await expect(hits).toBeFocused()

    await nav(page, 'Access')
    const form = page.getByRole('form', { name: 'Check access' })
    await form.getByLabel('Server').selectOption('knowledgeSearch')
    await form.getByLabel('Segment id').fill('hb-pto-policy#0')
    await form.getByLabel('Segment id').press('Enter')
    await expect(page.getByRole('region', { name: 'Verdict' })).toContainText('carol@example.com')
    await check('access', 'Access, a verdict')

    for (const panel of ['Health', 'Config', 'Audit', 'Workbench', 'Evaluation']) {
      await nav(page, panel)
      await expect(page.getByRole('heading', { name: panel, level: 1 })).toBeVisible()
      await check(panel.toLowerCase(), panel)
    }
    const evaluation = page.getByRole('main', { name: 'Evaluation' })
    await evaluation.getByRole('tab', { name: /^Runs/ }).click()
    await runGoldenSet(page, 1)
    await expect(evaluation.getByRole('table', { name: 'Metrics' })).toBeVisible()
    await check('evaluation-runs', 'Evaluation, runs')
    await page.getByRole('button', { name: 'Manage profiles' }).click()
    await check('dialog', 'the profiles dialog')
  })
})
