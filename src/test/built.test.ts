import { afterEach, describe, expect, it } from 'vitest'
import { builtFile, staleBuild } from './support/process/built'

describe('built files', () => {
  const project = process.env.RAG_CONSOLE_TEST_PROJECT
  afterEach(() => {
    if (project === undefined) delete process.env.RAG_CONSOLE_TEST_PROJECT
    else process.env.RAG_CONSOLE_TEST_PROJECT = project
  })

  it('refuses a unit test, which must run without a build, and says where it belongs', () => {
    process.env.RAG_CONSOLE_TEST_PROJECT = 'unit'
    expect(() => builtFile('main/demo.js')).toThrow(/INTEGRATION \(vitest\.config\.ts\)/)
  })

  it('calls a missing entry stale, naming it', () => {
    expect(staleBuild('main/no-such-entry.js')).toBe('out/main/no-such-entry.js is missing')
  })
})
