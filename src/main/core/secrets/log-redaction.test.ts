import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import { createLogger } from '../log'
import { createRedactor, REDACTED } from './redactor'

describe('log lines pass through the redactor', () => {
  it('writes no registered value or credential header to the log file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rc-log-'))
    const secret = `log-canary-${Date.now()}-x9`
    const redactor = createRedactor()
    redactor.add(secret)
    const log = createLogger({ dir, redactor, stderrLevel: null })

    log.info(`calling s1 with ${secret}`, {
      nested: { deep: [{ value: secret }] },
      error: new ConsoleError({ code: 'unauthorized', message: `rejected ${secret}` }),
      headers: { Authorization: 'Bearer unknown-token-aaa111', 'X-Tenant': 'acme' },
    })
    log.child({ server: 's1' }).warn('upstream said X-API-Key: unknown-key-bbb222 is invalid')
    log.error('failed', { cause: new Error(`fetch https://h.example/?k=${secret} failed`) })

    const text = readFileSync(join(dir, 'main.log'), 'utf8')
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines).toHaveLength(3)
    for (const leaked of [secret, 'unknown-token-aaa111', 'unknown-key-bbb222']) {
      expect(text).not.toContain(leaked)
    }
    expect(lines[0]).toMatchObject({
      message: `calling s1 with ${REDACTED}`,
      nested: { deep: [{ value: REDACTED }] },
      error: { name: 'ConsoleError', message: `rejected ${REDACTED}` },
      headers: { Authorization: `Bearer ${REDACTED}`, 'X-Tenant': 'acme' },
    })
    expect(lines[1]).toMatchObject({
      server: 's1',
      message: `upstream said X-API-Key: ${REDACTED} is invalid`,
    })
    expect(lines[2]).toMatchObject({
      cause: { message: `fetch https://h.example/?k=${REDACTED} failed` },
    })
  })
})
