import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtFile } from '#test/support/process/built'
import { PRELOAD_FILE, RENDERER_DIR } from './paths'

const mainDir = dirname(builtFile('main/index.js'))

describe('built layout', () => {
  it('main points at the preload file the build produced', () => {
    // Paths are resolved against import.meta.url, so every bundle must sit in out/main itself.
    const entries = readdirSync(mainDir, { withFileTypes: true })
    expect(entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name)).toEqual([])
    const bundles = entries.map((entry) => readFileSync(resolve(mainDir, entry.name), 'utf8'))
    expect(bundles.some((code) => code.includes(PRELOAD_FILE))).toBe(true)
    expect(existsSync(resolve(mainDir, PRELOAD_FILE))).toBe(true)
    expect(existsSync(resolve(mainDir, RENDERER_DIR, 'index.html'))).toBe(true)
  })

  it('the sandboxed preload requires nothing but electron', () => {
    const preload = readFileSync(resolve(mainDir, PRELOAD_FILE), 'utf8')
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1])
    expect(required).toEqual(['electron'])
    expect(preload).toContain('exposeInMainWorld("ragConsole"')
  })

  it('the window keeps renderer isolation on', () => {
    const main = readFileSync(resolve(mainDir, 'index.js'), 'utf8')
    expect(main).toMatch(/contextIsolation: true/)
    expect(main).toMatch(/sandbox: true/)
    expect(main).toMatch(/nodeIntegration: false/)
    expect(main).toMatch(/setWindowOpenHandler\(\(\) => \(\{ action: "deny" \}\)\)/)
  })

  it('the bundles carry the app’s version, not package.json’s scripts and dependency lists', () => {
    const pkg = JSON.parse(readFileSync(resolve(mainDir, '../../package.json'), 'utf8')) as {
      version: string
    }
    const bundles = readdirSync(mainDir)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(resolve(mainDir, name), 'utf8'))
    expect(bundles.some((code) => code.includes(`"${pkg.version}"`))).toBe(true)
    for (const code of bundles) {
      expect(code).not.toMatch(/\bdevDependencies\b/)
      expect(code).not.toContain('"test:quick"')
    }
  })

  it('the browser bridge is emitted beside index.html', () => {
    expect(
      existsSync(resolve(dirname(resolve(mainDir, PRELOAD_FILE)), '../renderer/web-bridge.js')),
    ).toBe(true)
  })
})
