import { describe, expect, it } from 'vitest'
import { expandTemplate } from './uri-template'

describe('expandTemplate', () => {
  it('fills simple variables, encoded', () => {
    expect(expandTemplate('demo://resource/dynamic/blob/{resourceId}', { resourceId: '3' })).toBe(
      'demo://resource/dynamic/blob/3',
    )
    expect(expandTemplate('x://{name}', { name: 'a b/c' })).toBe('x://a%20b%2Fc')
  })

  it('keeps reserved characters in {+x}', () => {
    expect(expandTemplate('file://{+path}', { path: '/etc/hosts' })).toBe('file:///etc/hosts')
  })

  it('builds a query from the values given and leaves empty ones out', () => {
    expect(expandTemplate('paged://doc/{id}{?lang,fmt*}', { id: '2', fmt: 'md' })).toBe(
      'paged://doc/2?fmt=md',
    )
    expect(expandTemplate('paged://doc/{id}{?lang,fmt*}', { id: '2' })).toBe('paged://doc/2')
  })
})
