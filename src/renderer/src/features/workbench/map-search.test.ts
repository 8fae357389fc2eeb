import { describe, expect, it } from 'vitest'
import type { SaveResult } from '#shared/ipc/registry'
import type { MappingProposal } from '#shared/model/mapping'
import {
  fieldOptions,
  listDepth,
  NONE,
  previewRows,
  roleHint,
  saveOutcome,
  withField,
  withHits,
} from './map-search'

const proposal = (roles: MappingProposal['roles']): MappingProposal => ({
  mapping: { tool: 'find', hits: 'items', fields: {} },
  root: 'structuredContent',
  candidates: [],
  fields: [],
  roles,
  notes: [],
})

describe('what a pick sends to the core', () => {
  it('maps one role to a path and keeps the others', () => {
    expect(withField({ fields: { id: 'key' } }, 'title', 'name')).toEqual({
      fields: { id: 'key', title: 'name' },
    })
  })

  it('maps a role set to (none) to nothing, not back to a guess', () => {
    expect(withField({ hits: 'items' }, 'score', NONE)).toEqual({
      hits: 'items',
      fields: { score: null },
    })
  })

  it('drops the fields picked for another hit list but keeps the score order', () => {
    expect(
      withHits({ hits: 'a', fields: { id: 'x' }, scoreOrder: 'lower-is-better' }, 'b'),
    ).toEqual({ hits: 'b', scoreOrder: 'lower-is-better' })
    expect(withHits({ hits: 'a', fields: { id: 'x' } }, 'b')).toEqual({ hits: 'b' })
  })
})

describe('what each field shows', () => {
  it('says when a role was guessed from its name', () => {
    expect(roleHint('uri', proposal({ uri: 'guessed' }))).toBe(
      'Guessed from its name: a URL, URI or file path',
    )
    expect(roleHint('uri', proposal({ uri: 'chosen' }))).toBe('a URL, URI or file path')
  })

  it('offers nothing first, then each path with its sample or, when empty, its kind', () => {
    expect(
      fieldOptions([
        { path: 'title', kind: 'string', sample: 'VPN setup', seen: 3 },
        { path: 'tags', kind: 'strings', sample: '', seen: 1 },
      ]),
    ).toEqual([
      { value: NONE, label: '(none)' },
      { value: 'title', label: 'title — VPN setup' },
      { value: 'tags', label: 'tags — strings' },
    ])
  })

  it('indents a candidate list one step per level below the root', () => {
    expect(listDepth('')).toBe(0)
    expect(listDepth('results')).toBe(0)
    expect(listDepth('data.results.items')).toBe(2)
  })

  it('makes room for one to six rows of hits', () => {
    expect(previewRows(0)).toBe(1)
    expect(previewRows(4)).toBe(4)
    expect(previewRows(20)).toBe(6)
  })
})

describe('what saving the mapping came to', () => {
  it('names the file, the server and the tool when saved', () => {
    const saved = { status: 'saved', path: '/c/rag-mcp.json', hash: 'h' } as SaveResult
    expect(saveOutcome(saved, 'kb', 'find')).toEqual({
      tone: 'ok',
      text: 'Saved to /c/rag-mcp.json: kb now searches through find. Try it in Search.',
    })
  })

  it('asks to save again when the file changed meanwhile', () => {
    const conflict = { status: 'conflict' } as SaveResult
    expect(saveOutcome(conflict, 'kb', 'find')).toMatchObject({ tone: 'warn' })
    expect(saveOutcome(conflict, 'kb', 'find').text).toMatch(/nothing was saved/)
  })

  it('counts the problems of a file that would be invalid', () => {
    const invalid: SaveResult = {
      status: 'invalid',
      path: '/c/rag-mcp.json',
      diagnostics: [
        { severity: 'error', message: 'a', path: 'x' },
        { severity: 'error', message: 'b', path: 'y' },
      ],
    } as SaveResult
    expect(saveOutcome(invalid, 'kb', 'find')).toEqual({
      tone: 'bad',
      text: 'Not saved: the file would have 2 problems; see Config.',
    })
  })
})
