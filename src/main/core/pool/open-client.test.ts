import { describe, expect, it } from 'vitest'
import { CallTracker } from './call-context'
import { liveServerConfig } from '#test/support/config/server-config'
import { createClient } from './open-client'

const hooks = { onLine() {}, onRepair() {}, onRateLimit() {}, onNote() {} }

function opened(id: string) {
  return createClient({
    config: liveServerConfig({ id, transport: 'http', url: 'http://127.0.0.1:9/mcp' }),
    resolved: { headers: {}, env: {} } as never,
    tracker: new CallTracker(),
    skipHandshake: false,
    hooks,
    clientInfo: { name: 'test', version: '1' },
  })
}

describe('createClient', () => {
  it('gives every Client one shared JSON Schema validator instead of an Ajv instance each', () => {
    // The pool never has the SDK validate tool output (raw results go to the dialects), and an
    // Ajv instance per Client costs every one of hundreds of servers milliseconds and memory.
    const validatorOf = (client: unknown) =>
      (client as { _jsonSchemaValidator: unknown })._jsonSchemaValidator
    const a = opened('a')
    const b = opened('b')
    expect(validatorOf(a.client)).toBeDefined()
    expect(validatorOf(a.client)).toBe(validatorOf(b.client))
  })
})
