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

  /**
   * Takes every complete event out of `pending` (and an unfinished one too when `final`):
   * their text to emit, and whether any of them needed a repair.
   */
  const take = (final: boolean): { out: string; repaired: boolean } => {
    let out = ''
    let repaired = false
    const emit = (raw: string): void => {
      const fixed = repairEvent(raw, onOutcome)
      if (fixed === undefined) out += `${raw}\n\n`
      else {
        out += fixed
        repaired = true
      }
    }
    for (;;) {
      const end = eventEnd(pending)
      if (!end) break
      emit(pending.slice(0, end.index))
      pending = pending.slice(end.index + end.length)
    }
    if (final && pending.trim() !== '') {
      emit(pending)
      pending = ''
    }
    return { out, repaired }
  }

  // A pull source instead of pipeThrough: one stream, no extra piping machinery per chunk.
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) {
          pending += decoder.decode()
          const { out } = take(true)
          if (out !== '') controller.enqueue(encoder.encode(out))
          controller.close()
          return
        }
        const carried = pending !== ''
        pending += decoder.decode(value, { stream: true })
        const { out, repaired } = take(false)
        if (out === '') continue
        // The usual case: a chunk of whole, clean events goes on as the very bytes it came as.
        const whole = !carried && pending === '' && !repaired
        controller.enqueue(whole ? value : encoder.encode(out))
        return
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

/**
 * One event's text (without its separator) → the text to emit, separator included; undefined
 * when the event needs no repair.
 */
function repairEvent(raw: string, onOutcome: (outcome: RepairOutcome) => void): string | undefined {
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
  // A priming event (an id and a retry delay with empty data, SEP-1699) is no message.
  if (type !== 'message' || data.join('').trim() === '') return undefined
  const outcomes = repairText(data.join('\n'))
  if (outcomes.length === 1 && outcomes[0]!.fixes.length === 0 && !outcomes[0]!.problem) {
    return undefined
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
