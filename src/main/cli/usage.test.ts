import { describe, expect, it } from 'vitest'
import { COMMANDS, GLOBAL_OPTIONS, TARGET_OPTIONS, type CommandName } from './command-table'
import { usage } from './usage'

const names = Object.keys(COMMANDS) as CommandName[]

describe('usage text, made from the command table', () => {
  it('lists every command with its options, TARGET spelled out once, and every global option', () => {
    const text = usage()
    for (const name of names) {
      const entry = text.split('\n').findIndex((line) => line.startsWith(`  ${name} `))
      expect(entry, name).toBeGreaterThan(-1)
    }
    for (const option of Object.keys({ ...GLOBAL_OPTIONS, ...TARGET_OPTIONS })) {
      expect(text).toContain(`--${option}`)
    }
    expect(text).toMatch(/^ {2}call TARGET --tool NAME \[--args JSON\]/m)
    expect(text).toMatch(/^ {2}search QUERY \[--phrase P\]\.\.\. \[--server ID\]\.\.\./m)
  })

  it("gives each command's help its arguments, options, bounds and defaults", () => {
    for (const name of names) {
      const text = usage(name)
      for (const arg of COMMANDS[name].args) expect(text, name).toContain(arg.name)
      for (const option of Object.keys(COMMANDS[name].options)) {
        expect(text, name).toMatch(new RegExp(`^ {2}(-., )?--${option}\\b`, 'm'))
      }
    }
    expect(usage('monitor').replace(/\s+/g, ' ')).toContain(
      '--metrics-port N the port of /metrics, /healthz and /readyz (0: any free one); 0 to 65535, default 9470',
    )
    expect(usage('eval')).toContain('-c, --complete')
    expect(usage('auth')).toContain('[--server ID]\n')
  })

  it('keeps every line within 100 columns', () => {
    for (const text of [usage(), ...names.map((name) => usage(name))]) {
      const long = text.split('\n').filter((line) => line.length > 100)
      expect(long).toEqual([])
    }
  })
})
