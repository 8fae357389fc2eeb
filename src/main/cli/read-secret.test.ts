import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { readSecret, type SecretInput } from './read-secret'

/** A terminal stand-in: the only part outside the system here. */
function fakeTerminal(): { input: SecretInput & PassThrough; modes: boolean[] } {
  const modes: boolean[] = []
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: (mode: boolean) => modes.push(mode),
  })
  return { input, modes }
}

describe('reading a secret', () => {
  it('takes piped stdin whole, dropping one trailing line break', async () => {
    const input = new PassThrough()
    input.end('s3cret-value\r\n')
    expect(await readSecret('unused: ', input, { write: () => true })).toBe('s3cret-value')
  })

  it('reads a terminal in raw mode without echoing, honouring backspace', async () => {
    const { input, modes } = fakeTerminal()
    let shown = ''
    const reading = readSecret('value: ', input, { write: (text: string) => (shown += text) })
    input.write('abx\u007fc')
    input.write('d\r')
    expect(await reading).toBe('abcd')
    expect(shown).toBe('value: \n')
    expect(modes).toEqual([true, false])
  })

  it('stops on Ctrl-C without a value', async () => {
    const { input, modes } = fakeTerminal()
    const reading = readSecret('value: ', input, { write: () => true })
    input.write('ab\u0003')
    await expect(reading).rejects.toThrow(/cancelled/)
    expect(modes).toEqual([true, false])
  })
})
