import { elementScroll, type Rect, type Virtualizer } from '@tanstack/react-virtual'

/*
 * A list that mounts while another box scrolls (a provider column coming into view) must not read
 * or write its layout as it mounts: the virtualizer's defaults read `clientHeight` and scroll the
 * fresh box to 0, and each forces a layout in the middle of React's commit (a dozen columns
 * mounting in one scroll frame were a dozen layouts). A list using these starts from an
 * `initialRect` and learns its real size once the browser has laid it out.
 */

type List = Virtualizer<HTMLDivElement, Element>

/** Follows the scroll box's size through a ResizeObserver only. */
export function observeSizeLazily(instance: List, onSize: (rect: Rect) => void): () => void {
  const element = instance.scrollElement
  const observer = new ResizeObserver(([entry]) => {
    if (!entry) return
    const { width, height } = entry.contentRect
    onSize({ width: Math.round(width), height: Math.round(height) })
  })
  if (element) observer.observe(element)
  return () => observer.disconnect()
}

const written = new WeakSet<Element>()

/** Scrolls like the default, but leaves a box alone that is at the top and asked to stay there. */
export const scrollLazily: typeof elementScroll<HTMLDivElement> = (offset, options, instance) => {
  const element = instance.scrollElement
  const target = offset + (options.adjustments ?? 0)
  if (!element || (target === 0 && !instance.scrollOffset && !written.has(element))) return
  written.add(element)
  elementScroll(offset, options, instance)
}
