import { describe, expect, it } from 'vitest'
import { BREAKS } from './breaks'
import { USAGE, UsageError, parseOptions } from './options'

describe('demo.js options', () => {
  it('defaults the doc host to the port base', () => {
    const options = parseOptions(['rag-search'], { RAG_DEMO_PORT_BASE: '50000' })
    expect(options).toMatchObject({
      command: 'rag-search',
      portBase: 50000,
      docHost: 'http://127.0.0.1:50000',
      ttlSeconds: 300,
    })
    expect(options.port).toBeUndefined()
  })

  it('reads every option', () => {
    const options = parseOptions(
      [
        'ragbox',
        '--port',
        '0',
        '--rate-limit',
        '5',
        '--query-rate-limit',
        '2',
        '--rate-window',
        '3',
        '--doc-host',
        'http://h:1/',
        '--ttl',
        '9',
      ],
      {},
    )
    expect(options).toMatchObject({
      port: 0,
      rateLimit: 5,
      queryRateLimit: 2,
      rateWindowSeconds: 3,
      docHost: 'http://h:1',
      ttlSeconds: 9,
    })
  })

  it('refuses mistakes with a message', () => {
    expect(() => parseOptions(['nope'], {})).toThrow(/unknown program "nope"/)
    expect(() => parseOptions(['vtex', '--port', 'x'], {})).toThrow(/--port must be an integer/)
    expect(() => parseOptions(['vtex', '--stdio'], {})).toThrow(/rag-tools-v1 only/)
    expect(() => parseOptions(['rag-search', '--bogus'], {})).toThrow(UsageError)
  })

  it('takes --break once per deliberate fault, and only the known ones', () => {
    const options = parseOptions(
      ['ragbox', '--break', 'ragbox.silence', '--break', 'protocol.ping'],
      {},
    )
    expect(options.breaks).toEqual(['ragbox.silence', 'protocol.ping'])
    expect(parseOptions(['ragbox'], {}).breaks).toEqual([])
    expect(() => parseOptions(['ragbox', '--break', 'ragbox.nope'], {})).toThrow(
      /--break must be one of .*ragbox\.silence.*got "ragbox\.nope"/,
    )
  })

  it('lists every --break id in its usage', () => {
    for (const id of BREAKS) expect(USAGE).toContain(id)
  })

  it('reads the multi-endpoint options of all', () => {
    const options = parseOptions(
      ['all', '--endpoints', '40', '--stdio-servers', '20', '--registry', '/tmp/r.json'],
      {},
    )
    expect(options).toMatchObject({ endpoints: 40, stdioServers: 20, registry: '/tmp/r.json' })
    expect(parseOptions(['ragbox', '--latency', '120'], {})).toMatchObject({
      latencyMs: 120,
      latencies: [120],
    })
    expect(parseOptions(['all', '--endpoints', '6', '--latency', '100,150,200'], {})).toMatchObject(
      { latencyMs: 100, latencies: [100, 150, 200] },
    )
    expect(parseOptions(['all'], {})).toMatchObject({ endpoints: undefined, stdioServers: 0 })
  })

  it('refuses multi-endpoint options that cannot work', () => {
    expect(() => parseOptions(['vtex', '--endpoints', '3'], {})).toThrow(
      /--endpoints applies to all only/,
    )
    expect(() => parseOptions(['all', '--registry', 'r.json'], {})).toThrow(/need --endpoints/)
    expect(() => parseOptions(['all', '--endpoints', '0'], {})).toThrow(/integer ≥ 1/)
    expect(() => parseOptions(['all', '--endpoints', '5000'], {})).toThrow(/at most 1000/)
    expect(() => parseOptions(['all', '--endpoints', '40', '--port-base', '65500'], {})).toThrow(
      /leaves no room for 40 endpoints/,
    )
    expect(() => parseOptions(['ragbox', '--latency', '100,200'], {})).toThrow(
      /a --latency list applies to all --endpoints only/,
    )
    expect(() => parseOptions(['all', '--endpoints', '4', '--latency', '100,,x'], {})).toThrow(
      /--latency must be an integer ≥ 0, got ""/,
    )
  })
})
