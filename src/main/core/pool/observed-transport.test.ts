import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { CallTracker } from './call-context'
import { ObservedTransport } from './observed-transport'
import { ProtocolLog } from './protocol-log'

const PING = { jsonrpc: '2.0', id: 1, method: 'ping' } as JSONRPCMessage

async function linked() {
  const [client, server] = InMemoryTransport.createLinkedPair()
  const log = new ProtocolLog({ max: 10, now: () => 0 })
  const observed = new ObservedTransport(client, new CallTracker(), false, log)
  await server.start()
  await observed.start()
  return { observed, server, log }
}

describe('ObservedTransport', () => {
  it('hands a message to the wire before it spends time logging it', async () => {
    const { observed, server, log } = await linked()
    let entriesWhenSent: number | undefined
    server.onmessage = () => (entriesWhenSent = log.list().length)
    await observed.send(PING)
    expect(entriesWhenSent).toBe(0)
    expect(log.list().map((entry) => [entry.direction, entry.method])).toEqual([['out', 'ping']])
  })

  it('logs an outgoing message even when the wire refuses it', async () => {
    const { observed, server, log } = await linked()
    await server.close()
    await expect(observed.send(PING)).rejects.toThrow()
    expect(log.list().map((entry) => entry.method)).toEqual(['ping'])
  })

  it('logs a message from the server before the Client sees it', async () => {
    const { observed, server, log } = await linked()
    let entriesWhenReceived: number | undefined
    observed.onmessage = () => (entriesWhenReceived = log.list().length)
    await server.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage)
    expect(entriesWhenReceived).toBe(1)
  })
})
