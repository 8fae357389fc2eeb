import { describe, expect, it } from 'vitest'
import { scanReferences } from './references'

describe('secret references', () => {
  it('finds every well-formed reference with its offsets', () => {
    const { references, problems } = scanReferences(
      'Bearer ${keychain:api.key-1} ${env:HOME_DIR}${session:t}',
    )
    expect(problems).toEqual([])
    expect(references).toEqual([
      { kind: 'keychain', name: 'api.key-1', start: 7, end: 28 },
      { kind: 'env', name: 'HOME_DIR', start: 29, end: 44 },
      { kind: 'session', name: 't', start: 44, end: 56 },
    ])
  })

  it('admits extra kinds only when asked', () => {
    expect(scanReferences('${input:key}').problems).toHaveLength(1)
    expect(scanReferences('${input:key}', ['input']).references[0]).toMatchObject({ kind: 'input' })
  })

  it('explains each malformed reference', () => {
    const messages = (value: string) => scanReferences(value).problems.map((p) => p.message)
    expect(messages('${keychain:}')).toEqual(["'${keychain:}' has no name: write ${keychain:NAME}"])
    expect(messages('${Keychain:x}')[0]).toContain("unknown reference kind 'Keychain'")
    expect(messages('${TOKEN}')[0]).toContain('write ${env:TOKEN}')
    expect(messages('${keychain:a b}')[0]).toContain("invalid name 'a b'")
    expect(messages('x ${env:A')[0]).toContain('unterminated reference')
  })

  it('leaves text without references alone', () => {
    expect(scanReferences('$5 and {braces}')).toEqual({ references: [], problems: [] })
  })
})
