import { describe, expect, it } from 'vitest'
import { ConsoleOAuthProvider, type ProviderOptions } from './provider'
import { memoryBackend, OAuthVault } from './vault'

function provider(config: ProviderOptions['config']): ConsoleOAuthProvider {
  return new ConsoleOAuthProvider(
    {
      serverId: 'kb',
      serverUrl: 'https://kb.example.com/mcp',
      config,
      vault: new OAuthVault(memoryBackend(new Map()), undefined),
      discovery: {},
      renewal: { refused: false },
      fetch: (url, init) => fetch(url, init),
    },
    { kind: 'pool', challenge: () => undefined },
  )
}

describe('ConsoleOAuthProvider', () => {
  // The MCP SDK registers with the Client ID Metadata Document's URL when the provider has one,
  // and falls back to dynamic registration when it has none.
  it('hands the SDK the configured client metadata URL, and no key at all without one', () => {
    const url = 'https://console.example.com/client.json'
    expect(provider({ clientMetadataUrl: url }).clientMetadataUrl).toBe(url)
    expect('clientMetadataUrl' in provider({})).toBe(false)
    expect('clientMetadataUrl' in provider(undefined)).toBe(false)
  })
})
