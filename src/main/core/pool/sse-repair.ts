import { repairText, type RepairOutcome } from './repair'

/**
 * Repairs the JSON-RPC messages inside a `text/event-stream` body, event by event, leaving every
 * other event (the legacy SSE `endpoint` event, comments, keep-alives) untouched. Events whose
 * data needs no repair are passed through as they came. A clean stream costs little more
 * than the bytes it carries.
 */
export function repairEventStream(
  body: ReadableStream<Uint8Array>,
  onOutcome: (outcome: RepairOutcome) => void,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let pending = ''

  /** Emits every complete event in `pending`; keeps an unfinished one for the next chunk. */
  /** Returns whether anything was emitted. */
  const drain = (controller: ReadableStreamDefaultController<Uint8Array>, final: boolean) => {
    let out = ''
    for (;;) {
      const end = eventEnd(pending)
      if (!end) break
      out += repairEvent(pending.slice(0, end.index), onOutcome)
      pending = pending.slice(end.index + end.length)
    }
    if (final && pending.trim() !== '') {
      out += repairEvent(pending, onOutcome)
      pending = ''
    }
    if (out === '') return false
    controller.enqueue(encoder.encode(out))
    return true
  }

  // A pull source instead of pipeThrough: one stream, no extra piping machinery per chunk.
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) {
          pending += decoder.decode()
          drain(controller, true)
          controller.close()
          return
        }
        pending += decoder.decode(value, { stream: true })
        if (drain(controller, false)) return
      }
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
}

/** Where the first event ends: its blank-line separator, in any of SSE's line endings. */
function eventEnd(text: string): { index: number; length: number } | undefined {
  const match = /\r\n\r\n|\n\n|\r\r|\r\n\n|\n\r\n/.exec(text)
  return match ? { index: match.index, length: match[0].length } : undefined
}

/** One event's text (without its separator) → the text to emit, separator included. */
function repairEvent(raw: string, onOutcome: (outcome: RepairOutcome) => void): string {
  const lines = raw.split(/\r\n|\r|\n/)
  let type = 'message'
  const data: string[] = []
  const other: string[] = []
  for (const line of lines) {
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') data.push(value)
    else {
      if (field === 'event') type = value
      other.push(line)
    }
  }
  const same = `${lines.join('\n')}\n\n`
  // A priming event (an id and a retry delay with empty data, SEP-1699) is no message.
  if (type !== 'message' || data.join('').trim() === '') return same
  const outcomes = repairText(data.join('\n'))
  if (outcomes.length === 1 && outcomes[0]!.fixes.length === 0 && !outcomes[0]!.problem) {
    return same
  }
  // One message per event; an event left without data is dropped by SSE parsers, which is
  // what an unusable one needs.
  let out = ''
  for (const outcome of outcomes) {
    onOutcome(outcome)
    if (outcome.message)
      out += `${[...other, `data: ${JSON.stringify(outcome.message)}`].join('\n')}\n\n`
  }
  return out === '' ? `${other.join('\n')}\n\n` : out
}
