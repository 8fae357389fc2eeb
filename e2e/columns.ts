import type { Page } from '@playwright/test'
import { expect } from './console'

/** Column headers of tables and grids, and the header cells of the hit lists' columns. */
const HEADERS = 'th, [role="columnheader"], .hit-list__head > *'
/** Body cells of the same tables, grids and lists. */
const CELLS = 'td, [role="cell"], [role="gridcell"], .hit-row > *'
/** Panel and section titles. */
const TITLES = 'h1, h2, h3'
/** Labels that must stay on one line: tabs and the labels beside their fields. */
const ONE_LINE = '[role="tab"], .ui-field--inline .ui-field__label'
/**
 * Cell text up to this long is a label (an operation, an outcome such as "error: unauthorized",
 * a status): it must show whole. Longer text (titles, paths, messages) may be ellipsised.
 */
export const SHORT_LABEL = 24

/**
 * Every column header, title, tab, inline field label, chosen option of a select and short cell
 * label on the page that does not show whole (cut, spilling, or a header or title broken inside
 * a word), as `"<text>": why`. A label shows whole when its text fits the element's content box and no box
 * between the text and the element clips it.
 */
export function clippedLabels(page: Page, options: FitOptions = {}): Promise<string[]> {
  return page.evaluate(
    ({ headers, cells, titles, oneLiners, short, scrollable }) => {
      const problems: string[] = []
      // Text a screen reader gets but nobody sees (a 1 px clipped box) takes no room.
      const unseen = (node: Node, el: HTMLElement): boolean => {
        for (let at = node.parentElement; at && at !== el.parentElement; at = at.parentElement) {
          if (at.getBoundingClientRect().width <= 2) return true
        }
        return false
      }
      /** The boxes of each visible piece of text in `el`, one list per text node. */
      const pieces = (el: HTMLElement): DOMRect[][] => {
        const found: DOMRect[][] = []
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!node.textContent?.trim() || unseen(node, el)) continue
          const range = document.createRange()
          range.selectNodeContents(node)
          const rects = [...range.getClientRects()].filter((r) => r.width > 0)
          if (rects.length > 0) found.push(rects)
        }
        return found
      }
      /** Whether text meant as one line (one block's inline run) breaks onto a second. */
      const wraps = (el: HTMLElement): boolean => {
        const lines = new Map<Element, Set<number>>()
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!node.textContent?.trim() || unseen(node, el)) continue
          let block = node.parentElement!
          while (block !== el && getComputedStyle(block).display.startsWith('inline')) {
            block = block.parentElement!
          }
          const range = document.createRange()
          range.selectNodeContents(node)
          const tops = lines.get(block) ?? new Set<number>()
          for (const r of range.getClientRects())
            if (r.width > 0) tops.add(Math.round(r.bottom / 6))
          lines.set(block, tops)
        }
        return [...lines.values()].some((tops) => tops.size > 1)
      }
      /** The horizontal span of the page in which `el` can be seen: its clipping ancestors and the window. */
      const visibleSpan = (el: HTMLElement): [number, number] => {
        let left = 0
        let right = document.documentElement.clientWidth
        for (let at = el.parentElement; at; at = at.parentElement) {
          // A modal dialog sits in the top layer: the boxes around it in the DOM do not clip it.
          const topLayer = at.matches('dialog:modal')
          const overflow = getComputedStyle(at).overflowX
          // Text a sideways-scrolling box holds is brought into view by scrolling that box.
          if (scrollable && (overflow === 'auto' || overflow === 'scroll')) {
            return [-Infinity, Infinity]
          }
          if (overflow !== 'visible') {
            const box = at.getBoundingClientRect()
            left = Math.max(left, box.left + at.clientLeft)
            right = Math.min(right, box.left + at.clientLeft + at.clientWidth)
          }
          if (topLayer) break
        }
        return [left, right]
      }
      /** Whether a line of the element's text ends inside a word (`knowledgeSea` / `rch`). */
      const breaksWord = (el: HTMLElement): boolean => {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? ''
          let top: number | undefined
          for (let i = 0; i < text.length; i++) {
            const range = document.createRange()
            range.setStart(node, i)
            range.setEnd(node, i + 1)
            const rect = range.getClientRects()[0]
            if (!rect || rect.width === 0) continue
            const line = Math.round(rect.top)
            if (
              top !== undefined &&
              line > top + 2 &&
              /\w/.test(text[i - 1]!) &&
              /\w/.test(text[i]!)
            ) {
              return true
            }
            top = line
          }
        }
        return false
      }
      const overlaps = (a: DOMRect, b: DOMRect): boolean =>
        a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1
      const check = (el: HTMLElement, kind: string, oneLine: boolean): void => {
        const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim()
        // Only what is rendered: a hidden tab's table has no boxes. A zero-width column does.
        if (!text || el.getClientRects().length === 0) return
        if (getComputedStyle(el).visibility === 'hidden') return
        const parts = pieces(el)
        const rects = parts.flat()
        if (rects.length === 0) return
        const style = getComputedStyle(el)
        const box = el.getBoundingClientRect()
        const left = box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft)
        const right =
          box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight)
        const inkLeft = Math.min(...rects.map((r) => r.left))
        const inkRight = Math.max(...rects.map((r) => r.right))
        const name = `${kind} "${text}"`
        if (inkRight - inkLeft > right - left + 0.5) {
          const ink = Math.round(inkRight - inkLeft)
          problems.push(`${name}: ${ink} px of text in ${Math.round(right - left)} px`)
          return
        }
        if (inkLeft < left - 0.5 || inkRight > right + 0.5) {
          problems.push(`${name}: its text spills out of its box`)
          return
        }
        const [clipLeft, clipRight] = visibleSpan(el)
        if (inkLeft < clipLeft - 0.5 || inkRight > clipRight + 0.5) {
          problems.push(`${name}: cut off by the edge of its container or the window`)
          return
        }
        const clash = parts.some((a, i) =>
          parts.slice(i + 1).some((b) => a.some((ra) => b.some((rb) => overlaps(ra, rb)))),
        )
        if (clash) {
          problems.push(`${name}: pieces of its text overlap`)
          return
        }
        if (oneLine && wraps(el)) {
          problems.push(`${name}: wraps onto a second line`)
          return
        }
        if (!oneLine && breaksWord(el)) {
          problems.push(`${name}: breaks inside a word`)
          return
        }
        // Ellipsis and clipping inside the element (a span that cuts its own text).
        for (const inner of [el, ...el.querySelectorAll<HTMLElement>('*')]) {
          if (inner.clientWidth <= 2) continue
          const clips = getComputedStyle(inner).overflowX !== 'visible'
          if (clips && inner.scrollWidth > inner.clientWidth) {
            problems.push(`${name}: cut (${inner.scrollWidth} px wide in ${inner.clientWidth} px)`)
            return
          }
        }
      }
      // A select shows its chosen option whole (room for the text and the arrow, ~24 px).
      const measure = document.createElement('canvas').getContext('2d')!
      for (const select of document.querySelectorAll<HTMLSelectElement>('select')) {
        const text = select.selectedOptions[0]?.text.trim()
        if (!text || select.getClientRects().length === 0) continue
        const style = getComputedStyle(select)
        if (style.visibility === 'hidden') continue
        measure.font = style.font
        const ink = measure.measureText(text).width
        const room = select.clientWidth - parseFloat(style.paddingLeft) - 24
        if (ink > room + 0.5) {
          problems.push(
            `select "${text}": cut (${Math.round(ink)} px of text in ${Math.round(room)} px)`,
          )
        }
      }
      for (const el of document.querySelectorAll<HTMLElement>(headers)) check(el, 'column', false)
      for (const el of document.querySelectorAll<HTMLElement>(titles)) check(el, 'title', false)
      for (const el of document.querySelectorAll<HTMLElement>(oneLiners)) check(el, 'label', true)
      for (const el of document.querySelectorAll<HTMLElement>(cells)) {
        const text = (el.textContent ?? '').trim()
        if (text.length <= short) check(el, 'cell', true)
      }
      return problems
    },
    {
      headers: HEADERS,
      cells: CELLS,
      titles: TITLES,
      oneLiners: ONE_LINE,
      short: SHORT_LABEL,
      scrollable: options.scrollable ?? false,
    },
  )
}

export interface FitOptions {
  /**
   * Text that a box scrolling sideways can bring into view counts as shown: at 200 % zoom a data
   * table may scroll both ways inside its own box (WCAG 1.4.10 allows it for data tables).
   */
  scrollable?: boolean
}

/**
 * Asserts (softly, so one run lists every panel's problems) that no column is narrower than its
 * header label, no title is cut and no short cell label is ellipsised.
 */
export async function expectColumnsFit(
  page: Page,
  where: string,
  options: FitOptions = {},
): Promise<void> {
  expect.soft(await clippedLabels(page, options), `labels cut on ${where}`).toEqual([])
}

/**
 * Table cells in `table` whose text is cut (ellipsised) without the whole text in their `title`,
 * as `"<text>": title "<title>"`. Text hidden from sight (a visually hidden prefix) counts too:
 * the tooltip says what the cell says.
 */
export function cutCellsWithoutTooltip(page: Page, table: string): Promise<string[]> {
  return page.getByRole('table', { name: table }).evaluate((element) => {
    const problems: string[] = []
    for (const cell of element.querySelectorAll<HTMLElement>('td')) {
      if (cell.scrollWidth <= cell.clientWidth + 1) continue
      const text = (cell.textContent ?? '').replace(/\s+/g, ' ').trim()
      const title = (cell.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim()
      if (title !== text) problems.push(`"${text}": title "${title}"`)
    }
    return problems
  })
}
