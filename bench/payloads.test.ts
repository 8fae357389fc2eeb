import { describe, expect, it } from 'vitest'
import { countFrame, type Traffic } from './payloads'

describe('countFrame', () => {
  const traffic = (): Traffic => ({ events: new Map(), replies: new Map(), logServers: new Set() })

  it('counts an event by its name, and a protocol event by its server too', () => {
    const seen = traffic()
    const frame = JSON.stringify({
      event: { name: 'workbench:protocol', payload: { server: 'r001', entries: [] } },
    })
    countFrame(seen, new Map(), frame)
    countFrame(seen, new Map(), frame)
    expect(seen.events.get('workbench:protocol')).toEqual({
      frames: 2,
      bytes: 2 * Buffer.byteLength(frame),
    })
    expect([...seen.logServers]).toEqual(['r001'])
    expect(seen.replies.size).toBe(0)
  })

  it('counts a reply by the channel of the request it answers, in UTF-8 bytes', () => {
    const seen = traffic()
    const reply = JSON.stringify({ id: 7, response: { ok: true, value: 'é' } })
    countFrame(seen, new Map([[7, 'search:run']]), reply)
    countFrame(seen, new Map(), JSON.stringify({ id: 8, response: { ok: true } }))
    expect(seen.replies.get('search:run')).toEqual({ frames: 1, bytes: reply.length + 1 })
    expect(seen.replies.get('unknown')?.frames).toBe(1)
  })
})
