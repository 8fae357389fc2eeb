import { describe, expect, it } from 'vitest'
import type { AccessCheck, LinkVerdict } from '#shared/model/rag'
import {
  describeTarget,
  draftFromTarget,
  EMPTY_DRAFT,
  filterChecks,
  linksFromText,
  sentence,
  targetFromDraft,
  targetParts,
  verdictCounts,
} from './verdicts'

const check = (verdict: LinkVerdict, extra: Partial<AccessCheck> = {}): AccessCheck => ({
  user: { userId: 'ana', sessionTags: [], groups: [] },
  verdict,
  explanation: `it is ${verdict}`,
  checkedAt: 0,
  cached: false,
  ...extra,
})

describe('the access form', () => {
  it('checks a pasted link on its own', () => {
    expect(targetFromDraft({ ...EMPTY_DRAFT, url: ' https://d.example/x ' })).toEqual({
      ok: true,
      target: { url: 'https://d.example/x' },
    })
  })

  it('checks a server and segment id together with the link, as a hit carries them', () => {
    expect(
      targetFromDraft({ url: 'https://d.example/x', server: 'kb', segmentId: 'doc#0' }),
    ).toEqual({
      ok: true,
      target: { url: 'https://d.example/x', server: 'kb', segmentId: 'doc#0' },
    })
  })

  it('asks for the server when only a segment id is given', () => {
    const result = targetFromDraft({ ...EMPTY_DRAFT, segmentId: 'doc#0' })
    expect(result).toEqual({ ok: false, errors: { server: expect.stringMatching(/server/) } })
  })

  it('asks for the segment id when a server is picked without one', () => {
    const result = targetFromDraft({ url: 'https://d.example/x', server: 'kb', segmentId: ' ' })
    expect(result).toEqual({ ok: false, errors: { segmentId: expect.stringMatching(/segment/) } })
  })

  it('says what to fill in when the form is empty', () => {
    expect(targetFromDraft(EMPTY_DRAFT)).toEqual({
      ok: false,
      errors: { form: 'Paste a link, or pick a server and enter a segment id.' },
    })
  })

  it('fills in from a hit handed over by Search', () => {
    expect(draftFromTarget({ hit: { server: 'kb', id: 'doc#2', uri: 'https://d/x' } })).toEqual({
      url: 'https://d/x',
      server: 'kb',
      segmentId: 'doc#2',
    })
  })

  it('reads a citation without a hit id as its link only', () => {
    expect(targetParts({ citation: { server: 'kb', uri: 'https://d/y' } })).toEqual({
      server: 'kb',
      url: 'https://d/y',
    })
    expect(describeTarget({ server: 'kb', url: 'https://d/y' })).toBe('https://d/y')
  })
})

describe('a batch of verdicts', () => {
  const rows = [
    { check: check('ok', { server: 'kb', segmentId: 'a#0' }) },
    { check: check('expired', { url: 'https://d/old?exp=1' }) },
    { check: check('ok', { url: 'https://d/b' }) },
    { check: check('login_wall', { url: 'https://d/portal/c' }) },
  ]

  it('counts each class in the fixed order of verdicts, leaving out classes with none', () => {
    expect(verdictCounts(rows.map((row) => row.check))).toEqual([
      { verdict: 'ok', count: 2 },
      { verdict: 'expired', count: 1 },
      { verdict: 'login_wall', count: 1 },
    ])
  })

  it('filters by the chosen classes and by words in the server, segment, link or reason', () => {
    expect(filterChecks(rows, new Set(['ok', 'login_wall']), '')).toHaveLength(3)
    expect(filterChecks(rows, new Set(), 'PORTAL')).toEqual([rows[3]])
    expect(filterChecks(rows, new Set(['ok']), 'a#0')).toEqual([rows[0]])
    expect(filterChecks(rows, new Set(['expired']), 'portal')).toEqual([])
  })
})

describe('pasted links', () => {
  it('become one target per distinct non-blank line', () => {
    expect(linksFromText(' https://a/1 \n\nhttps://b/2\r\nhttps://a/1\n')).toEqual({
      ok: true,
      targets: [{ url: 'https://a/1' }, { url: 'https://b/2' }],
    })
  })

  it('are refused when there are none, or more than a batch takes', () => {
    expect(linksFromText('  \n ')).toMatchObject({ ok: false })
    const many = Array.from({ length: 1001 }, (_, i) => `https://a/${i}`).join('\n')
    expect(linksFromText(many)).toEqual({
      ok: false,
      error: '1001 links: a batch checks at most 1000; split the list.',
    })
  })
})

describe('explanations', () => {
  it('read as sentences: a capital first and a full stop last', () => {
    expect(sentence('the link opens (HTTP 200, 4 ms)')).toBe('The link opens (HTTP 200, 4 ms).')
    expect(sentence('Already one.')).toBe('Already one.')
  })
})
