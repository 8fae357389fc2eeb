import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AccessCheck } from '#shared/model/rag'
import { createRedactor } from '../secrets/redactor'
import { AccessHistory } from './access-history'

const file = (): string => join(mkdtempSync(join(tmpdir(), 'rc-access-history-')), 'history.json')

function check(url: string): AccessCheck {
  return {
    url,
    user: { userId: 'carol@example.com', sessionTags: [], groups: ['legal'] },
    verdict: 'expired',
    explanation: 'this link expired 3 days ago',
    checkedAt: 1,
    cached: false,
  }
}

describe('AccessHistory', () => {
  it('keeps checks across a restart, newest first, with whom they were checked as', () => {
    const path = file()
    const history = new AccessHistory(path, createRedactor())
    const url = 'http://127.0.0.1:1/docs/a?u=carol&page=2'
    history.add({ server: 'kb', segmentId: 'a#0', url }, check(url), 'carol')
    history.add({ url: 'http://127.0.0.1:1/b' }, check('http://127.0.0.1:1/b'))
    const reopened = new AccessHistory(path, createRedactor())
    expect(reopened.list().map((e) => [e.id, e.target.url, e.profileId])).toEqual([
      [2, 'http://127.0.0.1:1/b', undefined],
      [1, url, 'carol'],
    ])
    expect(reopened.add({ url: 'http://127.0.0.1:1/c' }, check('http://127.0.0.1:1/c')).id).toBe(3)
  })

  it('keeps only the newest entries', () => {
    const path = file()
    const history = new AccessHistory(path, createRedactor(), 3)
    for (let n = 1; n <= 5; n++) history.add({ url: `http://127.0.0.1:1/${n}` }, check('x'))
    const kept = new AccessHistory(path, createRedactor(), 3).list()
    expect(kept.map((e) => e.target.url)).toEqual([5, 4, 3].map((n) => `http://127.0.0.1:1/${n}`))
  })

  it('never writes a known secret to the file', () => {
    const path = file()
    const redactor = createRedactor()
    redactor.add('s3cr3t-api-key-value')
    new AccessHistory(path, redactor).add(
      { url: 'http://127.0.0.1:1/?key=s3cr3t-api-key-value' },
      check('http://127.0.0.1:1/?key=s3cr3t-api-key-value'),
    )
    expect(readFileSync(path, 'utf8')).not.toContain('s3cr3t-api-key-value')
  })

  it('keeps signed links without their signatures: on disk, in the list, in the check', () => {
    const path = file()
    const url =
      'https://bucket.s3.amazonaws.com/docs/a.pdf?X-Amz-Credential=AKIAEXAMPLE%2F20260101&X-Amz-Expires=300&X-Amz-Signature=f00dfeedcafe0123&page=2'
    const entry = new AccessHistory(path, createRedactor()).add({ url }, check(url))
    const text = readFileSync(path, 'utf8')
    for (const secret of ['AKIAEXAMPLE', 'f00dfeedcafe0123']) {
      expect(text).not.toContain(secret)
      expect(JSON.stringify(entry)).not.toContain(secret)
    }
    expect(entry.target.url).toBe(
      'https://bucket.s3.amazonaws.com/docs/a.pdf?X-Amz-Credential=[redacted]&X-Amz-Expires=[redacted]&X-Amz-Signature=[redacted]&page=2',
    )
  })

  it('gives a signed link back whole to check it again in the same run, and asks for it after a restart', () => {
    const path = file()
    const url = 'https://docs.example/d/1?u=carol&exp=1795652116&sig=0123456789abcdef'
    const shown = new AccessHistory(path, createRedactor()).add({ url }, check(url)).target
    const history = new AccessHistory(path, createRedactor())
    expect(() => history.restore(shown)).toThrow(/the link was signed.*paste it again/)
    history.add({ url }, check(url))
    expect(history.restore(shown)).toEqual({ url })
    expect(history.restore({ url: 'https://docs.example/d/2' })).toEqual({
      url: 'https://docs.example/d/2',
    })
  })

  it('redacts a file written with whole signed links when it opens it', () => {
    const path = file()
    const url = 'https://docs.example/d/1?token=abcdef0123456789'
    writeFileSync(
      path,
      JSON.stringify({ version: 1, entries: [{ id: 4, target: { url }, check: check(url) }] }),
    )
    expect(new AccessHistory(path, createRedactor()).list()[0]!.target.url).toBe(
      'https://docs.example/d/1?token=[redacted]',
    )
    expect(readFileSync(path, 'utf8')).not.toContain('abcdef0123456789')
  })

  it('starts empty from an unreadable file instead of failing', () => {
    const path = file()
    writeFileSync(path, '{ not json')
    expect(new AccessHistory(path, createRedactor()).list()).toEqual([])
  })
})
