import { SECRET_NAME_RE } from '../ipc/secrets'

/**
 * Secret references in rag-mcp.json values: `${keychain:NAME}` (OS keychain), `${env:VAR}`
 * (environment) and `${session:NAME}` (memory-only for this session). They are valid in `url`,
 * `headers`, `env`, `launch.env` and a stdio server's `args` values and are resolved only at
 * connect time.
 */

/** Where a reference is resolved from: OS keychain, environment, or this session's memory. */
export const REFERENCE_KINDS = ['keychain', 'env', 'session'] as const
export type ReferenceKind = (typeof REFERENCE_KINDS)[number]

/** A well-formed `${kind:name}`; `start`/`end` are offsets into the scanned string. */
export interface Reference {
  kind: string
  name: string
  start: number
  end: number
}

/** A `${…}` that is not a valid reference, with what to write instead. */
export interface ReferenceProblem {
  start: number
  end: number
  message: string
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/
const clip = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text)

/**
 * Finds every `${…}` in a value. `extraKinds` admits kinds valid only in some files (VS Code's
 * `input`); the caller decides what they mean.
 */
export function scanReferences(
  value: string,
  extraKinds: readonly string[] = [],
): { references: Reference[]; problems: ReferenceProblem[] } {
  const references: Reference[] = []
  const problems: ReferenceProblem[] = []
  let from = 0
  for (;;) {
    const start = value.indexOf('${', from)
    if (start < 0) break
    const close = value.indexOf('}', start + 2)
    if (close < 0) {
      problems.push({
        start,
        end: value.length,
        message: `unterminated reference '${clip(value.slice(start))}': close it with '}'`,
      })
      break
    }
    const end = close + 1
    const body = value.slice(start + 2, close)
    const problem = checkReference(body, extraKinds)
    if (problem) problems.push({ start, end, message: problem })
    else {
      const colon = body.indexOf(':')
      references.push({ kind: body.slice(0, colon), name: body.slice(colon + 1), start, end })
    }
    from = end
  }
  return { references, problems }
}

function checkReference(body: string, extraKinds: readonly string[]): string | undefined {
  const colon = body.indexOf(':')
  if (colon < 0) {
    const name = clip(body)
    return ENV_NAME.test(body)
      ? `'\${${name}}' has no kind: write \${env:${name}} for an environment variable or \${keychain:${name}} for a stored secret`
      : `'\${${name}}' is not a reference: write \${keychain:NAME}, \${env:VAR} or \${session:NAME}`
  }
  const kind = body.slice(0, colon)
  const name = body.slice(colon + 1)
  const kinds: readonly string[] = [...REFERENCE_KINDS, ...extraKinds]
  if (!kinds.includes(kind)) {
    return `unknown reference kind '${clip(kind)}' in '\${${clip(body)}}': use ${kinds.join(', ')}`
  }
  if (name === '') return `'\${${kind}:}' has no name: write \${${kind}:NAME}`
  if (!SECRET_NAME_RE.test(name)) {
    return `invalid name '${clip(name)}' in \${${kind}:…}: use 1-128 letters, digits, '_', '.' or '-'`
  }
  return undefined
}

/** Whether a value contains anything that looks like a reference (well-formed or not). */
export const hasReference = (value: string): boolean => value.includes('${')

/**
 * `${app:node}`, `${app:demo}`, `${app:root}`: this app's Node executable, demo servers bundle
 * and folder, valid in `command`, `args` and `cwd` (the embedded demo registry uses them, and a
 * registry saved from it keeps them). Main expands them once the file is parsed.
 */
export const APP_PLACEHOLDER = /\$\{app:(node|demo|root)\}/g
