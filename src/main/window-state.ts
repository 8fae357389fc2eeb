import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomicSync } from '#core/util/atomic-write'

export interface Rectangle {
  x: number
  y: number
  width: number
  height: number
}

/** Where the window was when it last closed. */
export interface WindowState {
  bounds: Rectangle
  maximized: boolean
}

/** Where to open it: no `x`/`y` means "let the OS centre it". */
export interface WindowPlacement {
  bounds: Partial<Pick<Rectangle, 'x' | 'y'>> & Pick<Rectangle, 'width' | 'height'>
  maximized: boolean
}

export const DEFAULT_SIZE = { width: 1360, height: 860 }
/** The smallest window every panel is laid out for (checked at this size by e2e/min-size.spec.ts). */
export const MIN_SIZE = { width: 1024, height: 700 }

/** The file in the data folder that keeps the window's size and position. */
export const windowStateFile = (dataDir: string): string => join(dataDir, 'window-state.json')

const isRectangle = (value: unknown): value is Rectangle =>
  typeof value === 'object' &&
  value !== null &&
  (['x', 'y', 'width', 'height'] as const).every((key) =>
    Number.isFinite((value as Record<string, unknown>)[key]),
  )

/** The saved state, or null when there is none or it is unreadable (a new window then). */
export function readWindowState(file: string): WindowState | null {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<WindowState>
    if (!isRectangle(value.bounds)) return null
    return { bounds: value.bounds, maximized: value.maximized === true }
  } catch {
    return null
  }
}

export function writeWindowState(file: string, state: WindowState): void {
  writeFileAtomicSync(file, `${JSON.stringify(state, null, 2)}\n`)
}

/**
 * Saves the window's state shortly after it last moved, resized or was (un)maximized, and at
 * once when it closes (`flush`): an app that is killed or crashes loses at most the last
 * `delayMs` of it, not everything since it opened.
 */
export class WindowStateSaver {
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly file: string,
    private readonly current: () => WindowState,
    private readonly onError: (error: unknown) => void,
    private readonly delayMs = 500,
  ) {}

  /** The window moved or changed size: save once it has been still for `delayMs`. */
  changed(): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.flush(), this.delayMs)
  }

  /** Saves now (and cancels a pending save). */
  flush(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    try {
      writeWindowState(this.file, this.current())
    } catch (error) {
      this.onError(error)
    }
  }
}

function overlap(a: Rectangle, b: Rectangle): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return width > 0 && height > 0 ? width * height : 0
}

const clamp = (value: number, min: number, max: number): number =>
  Math.min(Math.max(value, min), Math.max(min, max))

/**
 * Where to open the window given the saved state and the displays' work areas (primary first):
 * on the display it overlaps most, resized to fit and moved fully onto it. A window saved on a
 * display that is gone opens centred on the primary one, keeping its size where that fits.
 */
export function placeWindow(saved: WindowState | null, workAreas: Rectangle[]): WindowPlacement {
  if (!saved) return { bounds: { ...DEFAULT_SIZE }, maximized: false }
  const { bounds } = saved
  const best = workAreas
    .map((area) => ({ area, shared: overlap(bounds, area) }))
    .sort((a, b) => b.shared - a.shared)[0]
  const fit = (area: Rectangle) => ({
    width: clamp(Math.round(bounds.width), MIN_SIZE.width, area.width),
    height: clamp(Math.round(bounds.height), MIN_SIZE.height, area.height),
  })
  if (!best) return { bounds: fit({ x: 0, y: 0, ...DEFAULT_SIZE }), maximized: saved.maximized }
  if (best.shared === 0) {
    return { bounds: fit(workAreas[0]!), maximized: saved.maximized }
  }
  const { area } = best
  const size = fit(area)
  return {
    bounds: {
      x: clamp(Math.round(bounds.x), area.x, area.x + area.width - size.width),
      y: clamp(Math.round(bounds.y), area.y, area.y + area.height - size.height),
      ...size,
    },
    maximized: saved.maximized,
  }
}
