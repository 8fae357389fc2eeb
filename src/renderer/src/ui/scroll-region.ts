import { useEffect, useState } from 'react'

/** The attributes that make a scrolling box a keyboard stop, named after what it holds. */
export interface ScrollRegionProps {
  tabIndex?: number
  role?: 'group'
  'aria-label'?: string
}

/**
 * A box that scrolls must be reachable by keyboard (WCAG 2.1.1), or arrow keys cannot scroll
 * it. While the box's content overflows it, the box becomes a focusable group named
 * "<label>, scrollable"; while everything fits it stays out of the Tab order. `ref` is the box
 * with `overflow: auto`; spread the returned props on it.
 */
export function useScrollRegion(
  ref: React.RefObject<HTMLElement | null>,
  label: string,
  enabled = true,
): ScrollRegionProps {
  const [overflows, setOverflows] = useState(false)
  useEffect(() => {
    const box = ref.current
    if (!enabled || !box) return
    const check = (): void =>
      setOverflows(box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1)
    const observer = new ResizeObserver(check)
    observer.observe(box)
    for (const child of box.children) observer.observe(child)
    check()
    return () => observer.disconnect()
  }, [ref, enabled])
  return overflows ? { tabIndex: 0, role: 'group', 'aria-label': `${label}, scrollable` } : {}
}
