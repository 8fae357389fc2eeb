import { MAX_SECRET_LENGTH } from '#shared/ipc/secrets'
import { UsageError } from './exit-codes'

/** The input a secret is read from (process.stdin, or a stand-in in tests). */
export interface SecretInput extends NodeJS.ReadableStream {
  isTTY?: boolean
  setRawMode?: (mode: boolean) => unknown
}

/**
 * Reads one secret value from stdin without ever echoing it. Piped: everything up to the end,
 * one trailing line break dropped. A terminal: a prompt on stderr, keystrokes not shown, Enter
 * ends, Ctrl-C aborts.
 */
export function readSecret(
  prompt: string,
  input: SecretInput = process.stdin,
  promptOut: { write(text: string): unknown } = process.stderr,
): Promise<string> {
  return input.isTTY && input.setRawMode ? readHidden(prompt, input, promptOut) : readAll(input)
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  let text = ''
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8')
    // Far past any key: stop reading instead of buffering whatever is piped in.
    if (text.length > MAX_SECRET_LENGTH + 2) break
  }
  return text.replace(/\r?\n$/, '')
}

function readHidden(
  prompt: string,
  input: SecretInput,
  promptOut: { write(text: string): unknown },
): Promise<string> {
  promptOut.write(prompt)
  input.setRawMode!(true)
  input.resume()
  let value = ''
  return new Promise((resolve, reject) => {
    const done = (error?: Error): void => {
      input.removeListener('data', onData)
      input.setRawMode!(false)
      input.pause()
      promptOut.write('\n')
      if (error) reject(error)
      else resolve(value)
    }
    const onData = (chunk: Buffer | string): void => {
      for (const char of chunk.toString()) {
        if (char === '\r' || char === '\n') return done()
        if (char === '\u0003') return done(new UsageError('cancelled: nothing was stored'))
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1)
        else value += char
      }
    }
    input.on('data', onData)
  })
}
