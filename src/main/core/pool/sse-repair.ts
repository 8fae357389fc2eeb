import { repairText, type RepairOutcome } from './repair'

/**
 * Repairs the JSON-RPC messages inside a `text/event-stream` body, event by event, leaving every
 * other event (the legacy SSE `endpoint` event, comments, keep-alives) untouched. Events whose
 * data needs no repair are passed through as they came.
 */
export function repairEventStream(
  body: ReadableStream<Uint8Array>,
  onOutcome: (outcome: RepairOutcome) => void,
): ReadableStream<Uint8Array> {
  let pending = ''
  let event: string[] = []

  const flushEvent = (controller: TransformStreamDefaultController<string>): void => {
    const lines = event
    event = []
    if (lines.length === 0) return
    controller.enqueue(`${repairEvent(lines, onOutcome).join('\n')}\n\n`)
  }

  const splitter = new TransformStream<string, string>({
    transform(chunk, controller) {
      pending += chunk
      let start = 0
      for (let i = 0; i < pending.length; i++) {
        const char = pending[i]
        if (char !== '\n' && char !== '\r') continue
        const line = pending.slice(start, i)
        if (char === '\r' && pending[i + 1] === '\n') i++
        start = i + 1
        if (line === '') flushEvent(controller)
        else event.push(line)
      }
      pending = pending.slice(start)
    },
    flush(controller) {
      if (pending !== '') event.push(pending)
      flushEvent(controller)
    },
  })

  return body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(splitter)
    .pipeThrough(new TextEncoderStream())
}

function repairEvent(lines: string[], onOutcome: (outcome: RepairOutcome) => void): string[] {
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
  if (type !== 'message' || data.length === 0) return lines
  const outcomes = repairText(data.join('\n'))
  const clean = outcomes.length === 1 && outcomes[0]!.fixes.length === 0 && !outcomes[0]!.problem
  if (clean) return lines
  const repaired: string[] = [...other]
  for (const outcome of outcomes) {
    onOutcome(outcome)
    if (!outcome.message) continue
    // One message per event: a blank line ends the previous one.
    if (repaired.length > other.length) repaired.push('')
    repaired.push(`data: ${JSON.stringify(outcome.message)}`)
  }
  // An event left without data is dropped by SSE parsers, which is what an unusable one needs.
  return repaired
}
