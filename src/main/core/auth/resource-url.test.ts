import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { publicServerUrl } from './resource-url'

describe('the server URL the OAuth flow shows others', () => {
  it('leaves out referenced and secret-looking query values, userinfo and the fragment', () => {
    expect(
      publicServerUrl(
        'https://svc:${keychain:pw}@kb.example.com/mcp?key=${keychain:k}&lang=en#top',
        'https://svc:s3cret@kb.example.com/mcp?key=abc123&lang=en#top',
      ),
    ).toBe('https://kb.example.com/mcp?lang=en')
    // Written in plain text, but a credential all the same.
    expect(
      publicServerUrl(
        'https://kb.example.com/mcp?api_key=plainvalue99&v=2',
        'https://kb.example.com/mcp?api_key=plainvalue99&v=2',
      ),
    ).toBe('https://kb.example.com/mcp?v=2')
    // A host from the environment is no secret part; nothing to drop keeps the URL as it is.
    expect(
      publicServerUrl('https://${env:KB_HOST}/mcp?a=1&b', 'https://kb.internal/mcp?a=1&b'),
    ).toBe('https://kb.internal/mcp?a=1&b')
  })

  it('never keeps a referenced value, whatever the names and values (bounded fuzz)', () => {
    const name = fc.stringMatching(/^[A-Za-z_][\w.-]{0,11}$/)
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, fc.string({ maxLength: 30 }), fc.boolean()), {
          selector: ([n]) => n,
          maxLength: 6,
        }),
        (params) => {
          const written = params.map(([n, v, ref], i) =>
            ref ? `${n}=\${keychain:s${i}}` : `${n}=${encodeURIComponent(v)}`,
          )
          const resolved = params.map(([n, v]) => `${n}=${encodeURIComponent(v)}`)
          const url = publicServerUrl(
            `https://kb.example.com/mcp?${written.join('&')}`,
            `https://kb.example.com/mcp?${resolved.join('&')}`,
          )
          const kept = new URL(url)
          expect(kept.origin + kept.pathname).toBe('https://kb.example.com/mcp')
          for (const [n, , ref] of params) if (ref) expect(kept.searchParams.has(n)).toBe(false)
        },
      ),
      { numRuns: 300, seed: 34 },
    )
  })
})
