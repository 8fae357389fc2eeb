import { describe, expect, it } from 'vitest'
import {
  looksRandomToken,
  MASK,
  maskArgs,
  maskPlaintextSecrets,
  plaintextSecretReason,
  plaintextSecretValues,
  suggestedReplacement,
  urlSecretReasons,
} from './plaintext-secrets'

describe('plaintext secret heuristics', () => {
  it('flags literal credentials', () => {
    expect(plaintextSecretReason('Authorization', 'Bearer abc')).toBe('a literal Bearer credential')
    expect(plaintextSecretReason('X-Key', 'rbx_live_0123456789ab')).toBe('a known API key format')
    expect(plaintextSecretReason('KB_TOKEN', 'hunter22hunter')).toBe(
      "a literal value for 'KB_TOKEN'",
    )
    expect(plaintextSecretReason('X-Seed', 'q8Zr2LmX0vKp7TgW4sYh1NcB')).toBe(
      'a long random-looking token',
    )
  })

  it('leaves references, ids and ordinary values alone', () => {
    for (const [key, value] of [
      ['Authorization', 'Bearer ${keychain:token}'],
      ['X-API-Key', '${keychain:key}'],
      ['X-Tenant', 'acme'],
      ['X-Org', '3f2b9c1e-8a4d-4f6b-9c2e-1a2b3c4d5e6f'],
      ['LOG_LEVEL', 'debug'],
      ['KB_TOKEN_FILE', '/run/secrets/kb'],
    ] as const) {
      expect(plaintextSecretReason(key, value), `${key}=${value}`).toBeUndefined()
    }
    expect(looksRandomToken('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).toBe(false)
  })

  it('takes a file path with a random temporary folder in it for a path, not a token', () => {
    for (const path of [
      '/tmp/todo-Ewz1zR/todo.log',
      '/tmp/rc-doctor-ro-a8Xk2P/tasks.json',
      './data/kb-7Hq2xZ9/index.db',
      '~/work/q8Zr2LmX0vKp7TgW/out.txt',
      'C:/Users/me/AppData/Local/Temp/todo-Ab3dEf9/todo.log',
    ]) {
      expect(plaintextSecretReason('TODO_LOG', path), path).toBeUndefined()
    }
    // A token is still a token, slashes (base64) and all.
    expect(plaintextSecretReason('X-Seed', 'q8Zr2LmX0vKp/7TgW4sYh1NcB')).toBe(
      'a long random-looking token',
    )
  })

  it('flags credentials in URLs', () => {
    expect(urlSecretReasons('https://u:pw@x.example/mcp')).toEqual(['a password in the URL'])
    expect(urlSecretReasons('https://x.example/mcp?api_key=abcdefgh123')).toEqual([
      "a literal value for 'api_key' in query parameter 'api_key'",
    ])
    expect(urlSecretReasons('https://x.example/mcp?key=${keychain:k}&page=2')).toEqual([])
  })

  it('suggests a keychain reference that keeps the auth scheme', () => {
    expect(suggestedReplacement('Authorization', 'Bearer abc')).toBe('Bearer ${keychain:token}')
    expect(suggestedReplacement('KB_TOKEN', 'x')).toBe('${keychain:KB_TOKEN}')
  })

  it('masks flagged values for views', () => {
    const masked = maskPlaintextSecrets({
      url: 'https://u:pw@x.example/mcp?token=abcdefgh1234',
      headers: { Authorization: 'Bearer abc', 'X-Tenant': 'acme' },
      env: { KB_TOKEN: '${keychain:kb}' },
    })
    expect(masked).toEqual({
      url: `https://${MASK}@x.example/mcp?${MASK}`,
      headers: { Authorization: MASK, 'X-Tenant': 'acme' },
      env: { KB_TOKEN: '${keychain:kb}' },
    })
  })
})

describe('maskArgs', () => {
  it('masks secret option values and key-looking arguments, and keeps paths and plain words', () => {
    const args = [
      '/opt/kb/server-2f9Qx7LmZp3RtVw8yB1c.js',
      '--port',
      '8080',
      '--password',
      'hunter2hunter2',
      '--api_key=${keychain:kb}',
      '--secret=correcthorsebattery',
      'ghp_abcdefghijklmnopqrstuvwxyz0123',
    ]
    expect(maskArgs(args)).toEqual([
      args[0],
      '--port',
      '8080',
      '--password',
      MASK,
      '--api_key=${keychain:kb}',
      `--secret=${MASK}`,
      MASK,
    ])
  })
})

describe('plaintextSecretValues', () => {
  it('lists the literal credentials of url, headers, env and launch.env (of `Bearer x`, x)', () => {
    expect(
      plaintextSecretValues({
        url: 'https://svc:p%40ss-w0rd-9@rag.example.com/mcp?token=tok-12345678&page=2',
        headers: {
          Authorization: 'Bearer eyJhbGciOi.J9x_1',
          'X-API-Key': 'plain-key-1234',
          'X-Tenant': 'acme',
          'X-Ref': 'Bearer ${keychain:apiKey}',
        },
        env: { KB_TOKEN: 'hunter22hunter', LOG_LEVEL: 'debug' },
        launch: { command: 'kb', env: { DB_PASSWORD: 'correct-horse' } },
      }).sort(),
    ).toEqual(
      [
        'eyJhbGciOi.J9x_1',
        'plain-key-1234',
        'hunter22hunter',
        'correct-horse',
        'p%40ss-w0rd-9',
        'p@ss-w0rd-9',
        'tok-12345678',
      ].sort(),
    )
  })

  it('lists secret-looking stdio arguments of args and launch.args, not paths or plain words', () => {
    expect(
      plaintextSecretValues({
        command: 'node',
        args: ['/opt/kb/server-2f9Qx7LmZp3RtVw8yB1c.js', '--api-key', 'sk-live-kb-hunter22'],
        launch: {
          command: 'kb',
          args: ['--port', '8080', '--token=tok-12345678', '${keychain:x}'],
        },
      }).sort(),
    ).toEqual(['sk-live-kb-hunter22', 'tok-12345678'])
  })

  it('lists a random-looking argument, not a long name made of words', () => {
    expect(
      plaintextSecretValues({
        args: ['--break', 'rag-tools-v1.unauthorized', 'a8Kq2vN7xR4mZ1pL9wT3yB6c'],
      }),
    ).toEqual(['a8Kq2vN7xR4mZ1pL9wT3yB6c'])
  })

  it('leaves out file paths given to options whose name says nothing secret', () => {
    expect(
      plaintextSecretValues({ args: ['--config', '/tmp/rc-e2e-U59fot/kb7Xq9Lm2Np4.json'] }),
    ).toEqual([])
  })

  it('lists nothing for an entry written with references only', () => {
    expect(
      plaintextSecretValues({
        url: 'https://rag.example.com/mcp',
        headers: { Authorization: 'Bearer ${keychain:apiKey}' },
      }),
    ).toEqual([])
  })
})
