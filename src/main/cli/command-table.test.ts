import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '#test/support/process/built'
import { COMMANDS, GLOBAL_OPTIONS, TARGET_OPTIONS, type OptionSpec } from './command-table'

/**
 * docs/cli.md against the command table: its command table has a row (or several) per command
 * naming exactly that command's options (TARGET standing for the target options), its global
 * option table names exactly the global ones, and its prose names no option the CLI lacks.
 */

const DOC = readFileSync(`${repoRoot}/docs/cli.md`, 'utf8')

/** Options named in docs/cli.md that belong to other programs (a stdio server's own argument). */
const FOREIGN_FLAGS = new Set(['--token'])

/** The first cell of each row of the Markdown table whose header starts with `header`. */
function firstCells(header: string): string[] {
  const lines = DOC.split('\n')
  const start = lines.findIndex((line) => line.startsWith(`| ${header} `))
  expect(start, `docs/cli.md has a table headed "${header}"`).toBeGreaterThan(-1)
  const rows: string[] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(line.split(/(?<!\\)\|/)[1]!.trim())
  }
  return rows
}

/** `--server` and `-c` in a synopsis; `TARGET` as the options it stands for. */
function flagsOf(text: string): string[] {
  const flags = [...text.matchAll(/(?<![\w-])--?[a-z][a-z0-9-]*/g)].map((match) => match[0])
  const target = /\bTARGET\b/.test(text)
    ? Object.keys(TARGET_OPTIONS).map((name) => `--${name}`)
    : []
  return [...flags, ...target]
}

/** How a table of options is written in a synopsis: `--name` and `-s` for each. */
function flagsOfTable(options: Record<string, OptionSpec>): string[] {
  return Object.entries(options).flatMap(([name, spec]) => [
    `--${name}`,
    ...(spec.short ? [`-${spec.short}`] : []),
  ])
}

const sorted = (items: Iterable<string>): string[] => [...new Set(items)].sort()

describe('docs/cli.md documents the command table', () => {
  it('documents every global option and no other in its global option table', () => {
    const documented = firstCells('global option').flatMap(flagsOf)
    expect(sorted(documented)).toEqual(sorted(flagsOfTable(GLOBAL_OPTIONS)))
  })

  it("documents every command with exactly that command's options", () => {
    const byCommand = new Map<string, string[]>()
    for (const cell of firstCells('command')) {
      const synopsis = cell.replaceAll('`', '')
      const command = synopsis.split(' ')[0]!
      byCommand.set(command, [...(byCommand.get(command) ?? []), ...flagsOf(synopsis)])
    }
    expect(sorted(byCommand.keys())).toEqual(sorted(Object.keys(COMMANDS)))
    const drift: Record<string, { documented: string[]; declared: string[] }> = {}
    for (const [command, spec] of Object.entries(COMMANDS)) {
      const documented = sorted(byCommand.get(command) ?? [])
      const declared = sorted(flagsOfTable(spec.options))
      if (documented.join() !== declared.join()) drift[command] = { documented, declared }
    }
    expect(drift).toEqual({})
  })

  it('spells TARGET out as exactly the target options', () => {
    const definition = /TARGET is `([^`]+)`/.exec(DOC.replaceAll('\n', ' '))
    expect(definition, 'docs/cli.md says what TARGET is').not.toBeNull()
    expect(sorted(flagsOf(definition![1]!))).toEqual(sorted(flagsOfTable(TARGET_OPTIONS)))
  })

  it('names no option the CLI lacks', () => {
    const known = new Set([
      ...flagsOfTable(GLOBAL_OPTIONS),
      ...Object.values(COMMANDS).flatMap((spec) => flagsOfTable(spec.options)),
      ...FOREIGN_FLAGS,
    ])
    const named = [...DOC.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((match) => match[0])
    expect(sorted(named.filter((flag) => !known.has(flag)))).toEqual([])
  })
})
