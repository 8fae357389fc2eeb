import { useEffect, useState } from 'react'
import uPlot from 'uplot'
import { MIN_PLOT_WIDTH, plotData, plotOptions, type PlotSpec } from './line-chart'

const token = (name: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888'

/**
 * Draws a uPlot chart of `spec` into the element `box` holds, sized to it as it resizes and
 * drawn again when the spec or the colour scheme changes. Returns the index the cursor is at
 * (null: off the plot).
 */
export function usePlot(
  box: React.RefObject<HTMLDivElement | null>,
  { x, series, height, minSpan, format }: PlotSpec,
): number | null {
  const [cursor, setCursor] = useState<number | null>(null)
  const [scheme, setScheme] = useState(0)

  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)')
    const changed = (): void => setScheme((n) => n + 1)
    media.addEventListener('change', changed)
    return () => media.removeEventListener('change', changed)
  }, [])

  useEffect(() => {
    const element = box.current
    if (!element) return
    const spec = { x, series, height, minSpan, format }
    const options = plotOptions(spec, element.clientWidth, token, setCursor)
    const plot = new uPlot(options, plotData(x, series), element)
    const observer = new ResizeObserver(() => {
      plot.setSize({ width: Math.max(MIN_PLOT_WIDTH, element.clientWidth), height })
    })
    observer.observe(element)
    return () => {
      observer.disconnect()
      plot.destroy()
    }
  }, [box, x, series, height, minSpan, format, scheme])

  return cursor
}
