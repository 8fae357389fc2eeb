import type { Locator, Page } from '@playwright/test'
import { SAFETY_NET_MS } from '#test/support/process/limits'
import { expect } from './console'

/** What the page draws around the focused element, and what that element is. */
interface FocusState {
  /** `button "Save…"`, `textbox "rag-mcp.json"`, … or `body` when nothing has focus. */
  element: string
  /** `outline 2px solid rgb(…)` / `box-shadow …` on it or an ancestor up to 3 levels, or null. */
  indicator: string | null
  /** Whether any part of it is inside the window. */
  inView: boolean
}

/** The focused element (inside shadow roots too) and its focus indicator. */
function focusState(page: Page): Promise<FocusState> {
  return page.evaluate(() => {
    let element = document.activeElement
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement
    if (!element || element === document.body) {
      return { element: 'body', indicator: null, inView: false }
    }
    const name =
      element.getAttribute('aria-label') ??
      (element as HTMLElement).innerText?.trim().slice(0, 40) ??
      ''
    const role = element.getAttribute('role') ?? element.tagName.toLowerCase()
    let indicator: string | null = null
    let node: Element | null = element
    for (let depth = 0; node && depth <= 3 && !indicator; depth++) {
      const style = getComputedStyle(node)
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1) {
        indicator = `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`
      } else if (style.boxShadow !== 'none') {
        indicator = `box-shadow ${style.boxShadow}`
      }
      node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null)
    }
    const rect = element.getBoundingClientRect()
    const inView =
      rect.bottom > 0 && rect.right > 0 && rect.top < innerHeight && rect.left < innerWidth
    return { element: `${role} "${name}"`, indicator, inView }
  })
}

/** The focused element shows a focus indicator (an outline or a ring) and is in the window. */
export async function expectFocusVisible(page: Page, where = ''): Promise<void> {
  // A component may draw its ring a moment after the focus event (CodeMirror's .cm-focused).
  let state = await focusState(page)
  await expect
    .poll(
      async () => {
        state = await focusState(page)
        return state.indicator !== null && state.inView
      },
      { timeout: SAFETY_NET_MS },
    )
    .toBe(true)
    .catch(() => undefined)
  expect(state.element, `something has focus ${where}`).not.toBe('body')
  expect(state.indicator, `${state.element} shows that it has focus ${where}`).not.toBeNull()
  expect(state.inView, `${state.element} is in the window ${where}`).toBe(true)
}

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has focus, checking at every stop that the
 * focused element shows it; fails after `max` presses. Returns the number of presses.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  { max = 40, back = false }: { max?: number; back?: boolean } = {},
): Promise<number> {
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
    await expectFocusVisible(page, `(Tab ${presses} towards ${target})`)
    if (await target.evaluate((element) => element.matches(':focus'))) return presses
  }
  throw new Error(`${target} not reached in ${max} presses of Tab`)
}
