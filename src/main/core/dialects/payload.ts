import { ConsoleError } from '#shared/errors'
import type { RawToolResult, ServerSession } from '../pool/types'
import { isRecord, joinPath, jsonType, type Violations } from './shape'

/**
 * Getting at the JSON a family sends inside a `tools/call` result: in `structuredContent`, or as
 * text in `content[]` (RAGbox, vtex, and rag-tools-v1 without structured output).
 */

/** A value found in a reply, with the path it was found at (the prefix for later violations). */
export interface Located {
  value: unknown
  path: string
}

/** The first `{type: 'text'}` block of `content`, or undefined. */
export function firstText(result: RawToolResult): Located | undefined {
  const content = result.content
  if (!Array.isArray(content)) return undefined
  const index = content.findIndex(
    (block) => isRecord(block) && block.type === 'text' && typeof block.text === 'string',
  )
  if (index < 0) return undefined
  const block = content[index] as { text: string }
  return { value: block.text, path: `${joinPath('content', index)}.text` }
}

/** Parses JSON, recording `unparsable_json` (with the start of the text) when it fails. */
export function parseJson(text: string, path: string, out: Violations): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    out.add('unparsable_json', path, `text is not JSON: ${reason}`, text)
    return undefined
  }
}

/**
 * The JSON in the result's first text block. Records `missing_content` when there is none and
 * `unparsable_json` when it does not parse; returns undefined then.
 */
export function jsonFromText(result: RawToolResult, out: Violations): Located | undefined {
  const text = firstText(result)
  if (!text) {
    out.add('missing_content', 'content', 'no text block with the JSON reply', result.content)
    return undefined
  }
  const value = parseJson(text.value as string, text.path, out)
  return value === undefined ? undefined : { value, path: text.path }
}

/** `structuredContent` when the server sent an object there, else the JSON text block. */
export function structuredOrText(result: RawToolResult, out: Violations): Located | undefined {
  if (isRecord(result.structuredContent)) {
    return { value: result.structuredContent, path: 'structuredContent' }
  }
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    out.add(
      'wrong_type',
      'structuredContent',
      `structuredContent should be an object, got ${jsonType(result.structuredContent)}`,
      result.structuredContent,
    )
  }
  return jsonFromText(result, out)
}

/** At most this much of a server's error text goes into a message. */
export const MAX_ERROR_TEXT = 500

/**
 * The `tool_error` a result stands for when the server flagged it as an error (`isError: true`):
 * the call failed, there is nothing to parse. The server's own words go into the message.
 */
export function toolErrorOf(
  result: unknown,
  session: ServerSession,
  tool: string,
): ConsoleError | undefined {
  if (!isRecord(result) || result.isError !== true) return undefined
  const text = firstText(result)?.value as string | undefined
  const said = text ? text.slice(0, MAX_ERROR_TEXT) : 'no message'
  return new ConsoleError({
    code: 'tool_error',
    origin: 'server',
    server: session.serverId,
    message: `server ${session.serverId}: tool ${tool} reported an error: ${said}`,
    details: { tool },
  })
}

/** Throws the {@link toolErrorOf} a result flagged `isError: true`. */
export function throwIfToolError(result: unknown, session: ServerSession, tool: string): void {
  const error = toolErrorOf(result, session, tool)
  if (error) throw error
}
