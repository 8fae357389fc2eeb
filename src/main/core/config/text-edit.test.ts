import { describe, expect, it } from 'vitest'
import { editEntries, setValue } from './text-edit'

describe('text edits that keep the file as the user wrote it', () => {
  it('replaces a value in place', () => {
    const text = '{\n  "docs": { "url": "x", "enabled": true }, // keep\n}\n'
    expect(setValue(text, ['docs', 'enabled'], false)).toBe(
      '{\n  "docs": { "url": "x", "enabled": false }, // keep\n}\n',
    )
  })

  it('adds a property after the last one with its indentation, leaving neighbours alone', () => {
    const text = '{\n  "kb": {\n\t"args": ["a", "b"] // local\n  }\n}\n'
    expect(setValue(text, ['kb', 'enabled'], false)).toBe(
      '{\n  "kb": {\n\t"args": ["a", "b"], // local\n\t"enabled": false\n  }\n}\n',
    )
  })

  it('keeps a trailing comma style', () => {
    const text = '{\n  "kb": {\n    "args": [],\n  },\n}\n'
    expect(setValue(text, ['kb', 'enabled'], false)).toBe(
      '{\n  "kb": {\n    "args": [],\n    "enabled": false,\n  },\n}\n',
    )
  })

  it('adds inline to a one-line object', () => {
    expect(setValue('{\n  "a": { "url": "x" }\n}', ['a', 'enabled'], false)).toBe(
      '{\n  "a": { "url": "x", "enabled": false }\n}',
    )
  })

  it('adds a whole entry to the root, laid out on its own lines', () => {
    const text = '{\r\n  "a": { "url": "x" }\r\n}\r\n'
    expect(setValue(text, ['b'], { url: 'y', args: ['1'] })).toBe(
      '{\r\n  "a": { "url": "x" },\r\n  "b": {\r\n    "url": "y",\r\n    "args": ["1"]\r\n  }\r\n}\r\n',
    )
  })

  it('creates the missing entry object for a field of a new server', () => {
    expect(editEntries('{}', [{ id: 'docs', field: 'enabled', value: false }])).toBe(
      '{\n  "docs": {\n    "enabled": false\n  }\n}',
    )
  })

  it('edits inside the mcpServers form', () => {
    const text = '{ "mcpServers": {\n  "kb": { "command": "kb" }\n} }'
    expect(editEntries(text, [{ id: 'kb', field: 'enabled', value: false }])).toBe(
      '{ "mcpServers": {\n  "kb": { "command": "kb", "enabled": false }\n} }',
    )
  })
})
