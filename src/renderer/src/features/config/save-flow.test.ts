import { describe, expect, it } from 'vitest'
import type { RawConfig, ReloadResult } from '#shared/ipc/registry'
import type { Diagnostic, ReloadEvent } from '#shared/model/registry'
import {
  bySeverity,
  diskVersion,
  externalComparison,
  isSaveShortcut,
  notOnDisk,
  reloadNotice,
  saveOutcome,
  worthSaving,
} from './save-flow'

const base: RawConfig = {
  path: '/r.json',
  exists: true,
  text: '{}',
  hash: 'h0',
  source: { kind: 'file', files: ['/r.json'], writableFile: '/r.json', label: '/r.json' },
  layeredOver: [],
  fromEmbedded: false,
}

const diagnostic = (severity: Diagnostic['severity']): Diagnostic => ({
  severity,
  file: '/r.json',
  path: 'a',
  line: 1,
  column: 1,
  message: 'm',
  rule: 'r',
})

const reloaded = (event: Partial<ReloadEvent>, emitted = true): ReloadResult => ({
  event: {
    at: 0,
    trigger: 'manual',
    outcome: 'applied',
    durationMs: 1,
    source: base.source,
    ...event,
  },
  emitted,
})

const diff = { added: ['a'], removed: [], changed: ['b'], unchanged: [] }

describe('opening the save dialog', () => {
  it('answers Ctrl+S and ⌘+S in either case, not with Alt nor other keys', () => {
    const key = { ctrlKey: false, metaKey: false, altKey: false, key: 's' }
    expect(isSaveShortcut({ ...key, ctrlKey: true })).toBe(true)
    expect(isSaveShortcut({ ...key, metaKey: true, key: 'S' })).toBe(true)
    expect(isSaveShortcut(key)).toBe(false)
    expect(isSaveShortcut({ ...key, ctrlKey: true, altKey: true })).toBe(false)
    expect(isSaveShortcut({ ...key, ctrlKey: true, key: 'a' })).toBe(false)
  })

  it('opens for an edit, or for a file that is not on disk yet, not for the text as saved', () => {
    expect(worthSaving('{}', base)).toBe(false)
    expect(worthSaving('{ }', base)).toBe(true)
    expect(worthSaving('{}', { ...base, exists: false })).toBe(true)
    expect(worthSaving('{}', { ...base, fromEmbedded: true })).toBe(true)
    expect(notOnDisk(base)).toBe(false)
  })
})

describe('what a reload says', () => {
  it('names what changed, or that nothing did', () => {
    expect(reloadNotice(reloaded({ diff }))).toEqual({
      tone: 'ok',
      message: 'Reloaded: added a; changed b.',
    })
    expect(reloadNotice(reloaded({ diff }, false)).message).toBe('Reloaded: nothing changed.')
    expect(reloadNotice(reloaded({})).message).toBe('Reloaded: nothing changed.')
  })

  it('warns that an invalid file keeps the last good config running, counting errors only', () => {
    const invalid = reloaded({
      outcome: 'invalid',
      diagnostics: [diagnostic('error'), diagnostic('warning'), diagnostic('error')],
    })
    expect(reloadNotice(invalid)).toEqual({
      tone: 'warn',
      message:
        'Reloaded: the file is still invalid (2 errors); the last good config keeps running.',
    })
  })
})

describe('after a save', () => {
  it('says where it saved and what changed', () => {
    const saved = saveOutcome({
      status: 'saved',
      path: '/r.json',
      hash: 'h1',
      reload: reloaded({ diff }),
    })
    expect(saved).toEqual({ notice: { tone: 'ok', message: 'Saved /r.json: added a; changed b.' } })
    const same = saveOutcome({ status: 'saved', path: '/r.json', hash: 'h1', reload: reloaded({}) })
    expect(same).toEqual({ notice: { tone: 'ok', message: 'Saved /r.json.' } })
  })

  it('counts the errors of a refused draft', () => {
    const refused = saveOutcome({
      status: 'invalid',
      path: '/r.json',
      diagnostics: [diagnostic('error'), diagnostic('warning')],
    })
    expect(refused).toEqual({
      notice: {
        tone: 'bad',
        message: 'Not saved: 1 error in the draft.',
        detail: 'They are marked in the editor.',
      },
    })
  })

  it('puts a conflict’s disk version beside the text that was to be saved', () => {
    const conflict = saveOutcome({
      status: 'conflict',
      path: '/r.json',
      diskExists: true,
      diskText: '{"disk":1}',
      diskHash: 'h2',
      proposedText: '{"mine":1}',
      keptAt: '/r.json.bak.1',
    })
    expect(conflict).toEqual({
      conflict: {
        kind: 'conflict',
        path: '/r.json',
        disk: '{"disk":1}',
        diskHash: 'h2',
        diskExists: true,
        mine: '{"mine":1}',
        keptAt: '/r.json.bak.1',
      },
    })
  })
})

describe('comparing with the disk', () => {
  it('turns the disk side back into a file read the draft can take', () => {
    const disk: RawConfig = { ...base, text: '{"disk":1}', hash: 'h2' }
    const comparison = externalComparison(disk, '{"mine":1}')
    expect(comparison).toMatchObject({ kind: 'external', disk: '{"disk":1}', mine: '{"mine":1}' })
    expect(diskVersion({ ...base, fromEmbedded: true, exists: false }, comparison)).toEqual(disk)
  })
})

describe("the save dialog's diagnostics", () => {
  it('splits errors from warnings, keeping their order', () => {
    const [e1, w1, e2] = [diagnostic('error'), diagnostic('warning'), diagnostic('error')]
    e2.message = 'second'
    const { errors, warnings } = bySeverity([e1, w1, e2])
    expect(errors).toEqual([e1, e2])
    expect(warnings).toEqual([w1])
  })

  it('has neither before the check has answered', () => {
    expect(bySeverity(undefined)).toEqual({ errors: [], warnings: [] })
  })
})
