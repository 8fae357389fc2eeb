import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const css = readFileSync(join(import.meta.dirname, '../renderer/src/styles/base.css'), 'utf8')

/**
 * The design tokens of the renderer's base.css meet WCAG 2.1 AA contrast in both schemes, so
 * any component that pairs a text token with a surface token does too (axe in e2e/a11y.spec.ts
 * checks the rendered pages; this names the token pair at fault).
 */

/** The `--name: #rrggbb` declarations of a CSS block. */
function tokensOf(block: string): Record<string, string> {
  const tokens: Record<string, string> = {}
  for (const [, name, value] of block.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)) {
    tokens[name!] = value!.toLowerCase()
  }
  return tokens
}

const light = tokensOf(css.slice(0, css.indexOf('@media (prefers-color-scheme: dark)')))
const dark = {
  ...light,
  ...tokensOf(/@media \(prefers-color-scheme: dark\)\s*\{([\s\S]*?)\n\}/.exec(css)![1]!),
}

/** WCAG 2.x relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}

/** Surfaces text sits on: the page, panels, sunken areas, hovered and selected rows, badges. */
const SURFACES = [
  '--bg',
  '--bg-raised',
  '--bg-sunken',
  '--bg-hover',
  '--bg-selected',
  '--neutral-bg',
]
/** Text colours used on any surface. */
const TEXT = ['--fg', '--fg-muted', '--fg-subtle', '--accent', '--ok', '--warn', '--bad', '--info']
const TONES = ['ok', 'warn', 'bad', 'info']
/** Editor text on the editor (bg-raised) and its tinted line backgrounds. */
const SYNTAX = ['--syn-key', '--syn-string', '--syn-number', '--syn-literal', '--syn-punct']

describe.each([
  ['light', light],
  ['dark', dark],
])('the %s theme', (_scheme, tokens) => {
  const failing = (pairs: [string, string][], min: number): string[] =>
    pairs
      .map(([fg, bg]) => [fg, bg, contrast(tokens[fg]!, tokens[bg]!)] as const)
      .filter(([, , ratio]) => ratio < min)
      .map(([fg, bg, ratio]) => `${fg} on ${bg}: ${ratio.toFixed(2)}`)

  it('defines every token it is checked on', () => {
    for (const name of [...SURFACES, ...TEXT, ...SYNTAX, '--accent-fg', '--focus']) {
      expect(tokens[name], name).toMatch(/^#[0-9a-f]{6}$/)
    }
  })

  it('text tokens hold 4.5:1 on every surface and on each status background', () => {
    const pairs: [string, string][] = []
    for (const fg of TEXT) for (const bg of SURFACES) pairs.push([fg, bg])
    // Status colours, muted and subtle text also sit inside tinted status areas (banners, diffs).
    for (const tone of TONES) {
      for (const fg of ['--fg', '--fg-muted', '--fg-subtle', `--${tone}`]) {
        pairs.push([fg, `--${tone}-bg`])
      }
    }
    for (const fg of SYNTAX) pairs.push([fg, '--bg-raised'], [fg, '--bg-hover'])
    pairs.push(['--accent-fg', '--accent'], ['--accent-fg', '--accent-hover'])
    expect(failing(pairs, 4.5)).toEqual([])
  })

  it('the focus ring holds 3:1 (WCAG 1.4.11) on every surface', () => {
    expect(
      failing(
        SURFACES.map((bg) => ['--focus', bg]),
        3,
      ),
    ).toEqual([])
  })
})
