import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import type { GoldenSet } from '#shared/model/evaluation'
import { EVAL_DEMO_ENV, startEvalDemo, type EvalDemo } from '#test/support/demo/eval-demo'
import { expect, invoke, screenshots, test } from './console'
import { runGoldenSet, saveDemoUsers, slowServer } from './demo'
import { launchHost, root } from './host'

/**
 * Judged coverage and pooled judging in the Evaluation panel, and a run of `rag-console eval`
 * shown live in it, through the browser host on the demo servers.
 */

let demo: EvalDemo | undefined
test.beforeAll(async () => {
  demo = await startEvalDemo()
})
test.afterAll(async () => {
  await demo?.stop()
})

const evaluation = (page: Page) => page.getByRole('main', { name: 'Evaluation' })

/** A data folder holding `set` (as `<id>.json`), as a console that saved it leaves it. */
function homeWithSet(set: GoldenSet): string {
  const home = mkdtempSync(join(tmpdir(), 'rc-e2e-pool-'))
  mkdirSync(join(home, 'eval', 'sets'), { recursive: true })
  writeFileSync(join(home, 'eval', 'sets', `${set.id}.json`), JSON.stringify(set))
  return home
}

/** Four questions of the demo set, each with only its best document judged: thin coverage. */
function thinSet(): GoldenSet {
  const demoSet = JSON.parse(
    readFileSync(join(root, 'resources', 'eval', 'demo-golden-set.json'), 'utf8'),
  ) as GoldenSet
  return {
    version: 1,
    id: 'thin',
    name: 'Thinly judged',
    queries: demoSet.queries
      .filter((q) => !q.profileId)
      .slice(0, 4)
      .map((q) => ({ ...q, judgments: q.judgments.filter((j) => j.grade === 3).slice(0, 1) })),
  }
}

async function showEvaluation(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Evaluation' })
    .click()
}

test('a thinly judged run says so, and its pool is judged from the keyboard and kept over a restart', async ({
  page,
  launch,
}) => {
  const home = homeWithSet(thinSet())
  const env = { ...EVAL_DEMO_ENV, RAG_CONSOLE_HOME: home }
  const { host, file, dir } = await launch(demo!.registry, { env })
  await page.goto(host.url)
  await saveDemoUsers(page)
  await invoke(page, 'profiles:activate', { id: 'carol' })
  await page.getByRole('button', { name: 'Dismiss notification' }).click()
  await showEvaluation(page)
  const main = evaluation(page)
  await main.getByRole('tab', { name: /^Runs/ }).click()
  await runGoldenSet(page, 1)

  // Coverage: the warning, the thin cells, and judged@10 per query in the heatmap.
  const warning = main
    .getByRole('alert')
    .filter({ hasText: 'These figures rest on few judgments: judged@10 is below 80%' })
  await expect(warning).toContainText('Unjudged hits count as misses')
  await expect(warning).toContainText(/merged · RRF \(\d+%\)/)
  const rrf = main.getByRole('table', { name: 'Metrics' }).getByRole('row', {
    name: 'merged · RRF',
    exact: true,
  })
  await expect(rrf.getByTitle('Few judgments: these metrics say little')).toHaveText(/^\d+%$/)
  await main
    .getByRole('figure', { name: 'nDCG@10 per query' })
    .getByRole('combobox', { name: 'Metric' })
    .selectOption({ label: 'Judged@10' })
  const heat = main.getByRole('table', { name: 'Judged@10 per query and list' })
  await expect(heat.getByRole('row')).toHaveCount(5)
  await expect(heat.getByRole('row', { name: /^how do I request paid time off/ })).toContainText(
    /0\.\d\d/,
  )
  await screenshots(page, 'evaluation-coverage')

  // The pool, from the warning: the first unjudged document, focused, with its words and link.
  await warning.getByRole('button', { name: 'Judge the pool' }).click()
  await expect(main.getByRole('tab', { name: 'Judge pool' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  const first = main.getByRole('region', { name: /^Judge document 1 of \d+$/ })
  await expect(first).toBeFocused()
  const count = Number(/of (\d+)$/.exec((await first.getAttribute('aria-label'))!)![1])
  expect(count).toBeGreaterThan(4)
  await expect(first.getByLabel('Document text')).not.toContainText('Asking')
  await expect(first.getByLabel('Document text')).not.toContainText('No text')
  await expect(
    first.getByRole('link', { name: /^http:\/\/127\.0\.0\.1:47310\/docs\// }),
  ).toBeVisible()
  const coverage = main
    .getByRole('table', { name: 'Judged@10 now' })
    .getByRole('row', { name: 'merged · RRF', exact: true })
    .getByRole('cell')
  const before = await coverage.textContent()
  const progress = main.getByRole('status').filter({ hasText: 'judged in this session' })
  const judgedBefore = Number(/· (\d+) of \d+ pooled/.exec((await progress.textContent())!)![1])
  await screenshots(page, 'evaluation-pool')

  // 2 grades the first and goes on; ← goes back to it, graded; → and 0 grade the second.
  await page.keyboard.press('2')
  await expect(main.getByRole('region', { name: `Judge document 2 of ${count}` })).toBeFocused()
  await page.keyboard.press('ArrowLeft')
  await expect(first.getByRole('radio', { name: 'highly relevant', exact: true })).toBeChecked()
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('0')
  await expect(main.getByRole('region', { name: `Judge document 3 of ${count}` })).toBeVisible()
  await expect(progress).toContainText(`2 of ${count} judged in this session`)
  await expect(progress).toContainText(`${judgedBefore + 2} of`)
  await expect(coverage).not.toHaveText(before!)
  await screenshots(page, 'evaluation-pool-judged')

  // A console started again on the same data folder has both judgments.
  await page.goto('about:blank')
  await host.stop()
  const again = await launchHost({
    config: file,
    dataDir: home,
    env: { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), ...EVAL_DEMO_ENV },
  })
  try {
    await page.goto(again.url)
    await showEvaluation(page)
    await evaluation(page).getByRole('tab', { name: 'Judge pool' }).click()
    await expect(
      evaluation(page).getByRole('status').filter({ hasText: 'judged in this session' }),
    ).toContainText(`${judgedBefore + 2} of`)
    await expect(
      evaluation(page).getByRole('region', { name: `Judge document 1 of ${count - 2}` }),
    ).toBeVisible()
  } finally {
    await page.goto('about:blank')
    await again.stop()
  }
})

test('a run rag-console eval makes shows in the open panel as it goes', async ({
  page,
  launch,
}) => {
  const set: GoldenSet = {
    version: 1,
    id: 'live',
    name: 'Live from the CLI',
    queries: Array.from({ length: 12 }, (_, i) => ({
      id: `q${i + 1}`,
      query: `question ${i + 1}`,
      judgments: [{ docKey: 'id:doc-1', grade: 2 }],
    })),
  }
  const home = homeWithSet(set)
  const setFile = join(home, 'live-set.json')
  writeFileSync(setFile, JSON.stringify(set))
  const { host, file } = await launch(
    { slow: slowServer('slow', 500) },
    { env: { RAG_CONSOLE_HOME: home } },
  )
  await page.goto(host.url)
  await showEvaluation(page)
  const main = evaluation(page)
  await main.getByRole('tab', { name: /^Runs/ }).click()
  await expect(main.getByRole('table', { name: 'Run history' })).toContainText('No runs')

  // The CLI, a second process on the same data folder.
  const cli = spawn(
    process.execPath,
    [join(root, 'out/main/cli.js'), '--config', file, 'eval', setFile],
    {
      env: { ...process.env, RAG_CONSOLE_HOME: home },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let stderr = ''
  cli.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => cli.once('exit', resolve))
  try {
    const launcher = main.getByRole('form', { name: 'Run a set' })
    await expect(launcher.getByRole('progressbar', { name: 'Run progress' })).toBeVisible()
    await expect(launcher.getByRole('status')).toHaveText(/^([1-9]|1[01]) of 12 queries$/)
    await expect(launcher).toContainText('Run by another process')
    await expect(launcher.getByRole('button', { name: 'Cancel run' })).toBeHidden()
    await screenshots(page, 'evaluation-cli-run')
    expect(await exited, stderr).toBe(0)
    const newest = main.getByRole('table', { name: 'Run history' }).getByRole('row').nth(1)
    await expect(newest).toContainText('done')
    await expect(newest).toContainText('12 / 12')
    await expect(main.getByRole('table', { name: 'Metrics' })).toBeVisible()
  } finally {
    cli.kill()
  }
})
