import { describe, expect, it } from 'vitest'
import { base64Bytes, decodeBase64Text, isHtml, isText } from './artifact-text'

describe('artifact text', () => {
  it('decodes UTF-8 text from base64', () => {
    const b64 = btoa(String.fromCharCode(...new TextEncoder().encode('Grüße <b>')))
    expect(decodeBase64Text(b64)).toBe('Grüße <b>')
  })

  it('gives undefined for a body that is not base64', () => {
    expect(decodeBase64Text('not base64!')).toBeUndefined()
  })

  it('counts bytes from the base64 length', () => {
    expect(base64Bytes(btoa('abcd'))).toBe(4)
    expect(base64Bytes(btoa('abcde'))).toBe(5)
  })

  it('keeps html apart from the text types shown inline', () => {
    expect(isHtml('text/html; charset=utf-8')).toBe(true)
    expect(isText('text/html')).toBe(false)
    expect(isText('text/plain')).toBe(true)
    expect(isText('application/json')).toBe(true)
    expect(isText('image/png')).toBe(false)
  })
})
