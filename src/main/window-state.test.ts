import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  DEFAULT_SIZE,
  MIN_SIZE,
  placeWindow,
  readWindowState,
  windowStateFile,
  WindowStateSaver,
  writeWindowState,
} from './window-state'
import { SAFETY_NET_MS } from '#test/support/process/limits'

const primary = { x: 0, y: 0, width: 1920, height: 1040 }
const right = { x: 1920, y: 0, width: 2560, height: 1400 }

describe('window placement', () => {
  it('opens a first window at the default size, centred by the OS', () => {
    expect(placeWindow(null, [primary])).toEqual({ bounds: DEFAULT_SIZE, maximized: false })
  })

  it('reopens where it was when that is on screen', () => {
    const saved = { bounds: { x: 2100, y: 80, width: 1500, height: 900 }, maximized: true }
    expect(placeWindow(saved, [primary, right])).toEqual(saved)
  })

  it("moves a window hanging off a display's edge fully onto it", () => {
    const saved = { bounds: { x: 1500, y: -50, width: 1100, height: 720 }, maximized: false }
    expect(placeWindow(saved, [primary]).bounds).toEqual({ x: 820, y: 0, width: 1100, height: 720 })
  })

  it('keeps it on the display it overlaps most', () => {
    const saved = { bounds: { x: 1700, y: 100, width: 1200, height: 800 }, maximized: false }
    expect(placeWindow(saved, [primary, right]).bounds).toEqual({
      x: 1920,
      y: 100,
      width: 1200,
      height: 800,
    })
  })

  it('centres a window from a display that is gone on the primary one', () => {
    const saved = { bounds: { x: 5000, y: 200, width: 1400, height: 900 }, maximized: false }
    expect(placeWindow(saved, [primary])).toEqual({
      bounds: { width: 1400, height: 900 },
      maximized: false,
    })
  })

  it('shrinks a window larger than its display, but not below the minimum size', () => {
    const small = { x: 0, y: 0, width: 1280, height: 720 }
    const huge = { bounds: { x: 0, y: 0, width: 4000, height: 3000 }, maximized: false }
    expect(placeWindow(huge, [small]).bounds).toEqual(small)
    const tiny = { bounds: { x: 10, y: 10, width: 100, height: 50 }, maximized: false }
    expect(placeWindow(tiny, [primary]).bounds).toMatchObject(MIN_SIZE)
  })

  it('never makes the window smaller than 1024×700, the size every panel is laid out for', () => {
    expect(MIN_SIZE).toEqual({ width: 1024, height: 700 })
    const saved = { bounds: { x: 0, y: 0, width: 980, height: 640 }, maximized: false }
    expect(placeWindow(saved, [primary]).bounds).toMatchObject({ width: 1024, height: 700 })
  })
})

describe('window state file', () => {
  let dir: string
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'rag-window-state-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('round-trips through the data folder', () => {
    const state = { bounds: { x: 12, y: 34, width: 1200, height: 800 }, maximized: true }
    writeWindowState(windowStateFile(dir), state)
    expect(readWindowState(windowStateFile(dir))).toEqual(state)
    expect(readdirSync(dir)).toEqual(['window-state.json'])
  })

  it('treats a missing, broken or foreign file as no saved state', () => {
    const file = windowStateFile(dir)
    expect(readWindowState(file)).toBeNull()
    writeFileSync(file, '{"bounds": {"x": 1')
    expect(readWindowState(file)).toBeNull()
    writeFileSync(file, '{"bounds": {"x": "0", "y": 0, "width": 10, "height": 10}}')
    expect(readWindowState(file)).toBeNull()
    writeFileSync(file, 'null')
    expect(readWindowState(file)).toBeNull()
  })
})

describe('window state saver', () => {
  it('has the state on disk soon after a change, so a killed app reopens where it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-window-state-'))
    const file = windowStateFile(dir)
    const state = { bounds: { x: 40, y: 30, width: 1280, height: 760 }, maximized: false }
    // The app: the window moved, and it keeps running (no close) until it is killed.
    const app = spawn(
      process.execPath,
      [
        '-e',
        `const { createJiti } = require('jiti')
         createJiti(${JSON.stringify(__filename)}).import('./window-state.ts').then(({ WindowStateSaver }) => {
           const saver = new WindowStateSaver(${JSON.stringify(file)}, () => (${JSON.stringify(state)}), console.error, 50)
           saver.changed()
           setInterval(() => {}, 1000)
         })`,
      ],
      { stdio: 'ignore' },
    )
    try {
      await expect.poll(() => existsSync(file), { timeout: SAFETY_NET_MS }).toBe(true)
    } finally {
      app.kill('SIGKILL')
    }
    // Started again: the state as it was left.
    expect(readWindowState(file)).toEqual(state)
    rmSync(dir, { recursive: true, force: true })
  })

  it('waits for a burst of changes to end, and writes at once on flush', () => {
    vi.useFakeTimers()
    const dir = mkdtempSync(join(tmpdir(), 'rag-window-state-'))
    try {
      const file = windowStateFile(dir)
      let width = 1100
      const saver = new WindowStateSaver(
        file,
        () => ({ bounds: { x: 0, y: 0, width, height: 700 }, maximized: false }),
        (error) => {
          throw error
        },
      )
      for (; width < 1200; width += 20) saver.changed()
      expect(existsSync(file)).toBe(false)
      vi.advanceTimersByTime(500)
      expect(readWindowState(file)?.bounds.width).toBe(width)
      width = 1300
      saver.changed()
      saver.flush()
      expect(readWindowState(file)?.bounds.width).toBe(1300)
    } finally {
      vi.useRealTimers()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
