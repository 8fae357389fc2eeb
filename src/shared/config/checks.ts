import type { z } from 'zod'
import { isPlainObject, unknownFields } from './schema-walk'
import type { EntryReporter } from './entry-reporter'
import { editDistance } from './issue-text'
import { plaintextSecretReason, suggestedReplacement, urlSecretReasons } from './plaintext-secrets'
import { APP_PLACEHOLDER, hasReference, scanReferences } from './references'

/**
 * Checks of one merged entry beyond the zod schema: unknown fields, secret references and
 * plaintext-looking secrets. They look only at values of the right type, so they can run on
 * an entry that also has schema errors (all problems are reported at once).
 */

type Segment = string | number

const FIELD_HINTS: Record<string, string> = {
  timeout: 'timeoutMs (milliseconds)',
  timeout_ms: 'timeoutMs',
  disabled: '"enabled": false',
  isExclusive: 'is_exclusive',
  data_sources: 'dataSources',
  environment: 'env',
}

function suggestion(key: string, known: string[]): string {
  const hint = FIELD_HINTS[key]
  if (hint) return `; use ${hint}`
  const close = known
    .map((name) => ({ name, distance: editDistance(key.toLowerCase(), name.toLowerCase()) }))
    .filter(({ distance }) => distance <= 2)
    .sort((a, b) => a.distance - b.distance)[0]
  return close ? `; did you mean '${close.name}'?` : ''
}

/** Unknown fields anywhere in the entry are warnings, with a "did you mean" when one is close. */
export function checkUnknownFields(reporter: EntryReporter, schema: z.ZodType): void {
  for (const { path, known } of unknownFields(schema, reporter.entry.value)) {
    const key = String(path.at(-1))
    reporter.report(
      path,
      'warning',
      'unknown_field',
      `unknown field '${key}' (ignored)${suggestion(key, known)}`,
      {
        on: 'key',
      },
    )
  }
}

/** Where references are resolved: `url`, `headers`, `env`, `launch.env`. */
function secretValues(
  value: Record<string, unknown>,
): Array<{ path: Segment[]; key: string; text: string }> {
  const out: Array<{ path: Segment[]; key: string; text: string }> = []
  if (typeof value.url === 'string') out.push({ path: ['url'], key: 'url', text: value.url })
  const maps: Array<[Segment[], unknown]> = [
    [['headers'], value.headers],
    [['env'], value.env],
    [['launch', 'env'], isPlainObject(value.launch) ? value.launch.env : undefined],
  ]
  for (const [path, map] of maps) {
    if (!isPlainObject(map)) continue
    for (const [key, text] of Object.entries(map)) {
      if (typeof text === 'string') out.push({ path: [...path, key], key, text })
    }
  }
  return out
}

/** Fields run or read as given, where a reference would reach the program unresolved. */
function unresolvedValues(
  value: Record<string, unknown>,
): Array<{ path: Segment[]; text: string }> {
  const out: Array<{ path: Segment[]; text: string }> = []
  const add = (base: Segment[], object: Record<string, unknown>): void => {
    for (const field of ['command', 'cwd']) {
      const text = object[field]
      if (typeof text === 'string') out.push({ path: [...base, field], text })
    }
    // A stdio server's own `args` are resolved; a launched server's are not.
    if (base.length > 0) out.push(...argTexts(base, object))
  }
  add([], value)
  if (isPlainObject(value.launch)) add(['launch'], value.launch)
  return out
}

function argTexts(
  base: Segment[],
  object: Record<string, unknown>,
): Array<{ path: Segment[]; text: string }> {
  if (!Array.isArray(object.args)) return []
  return object.args.flatMap((text, index) =>
    typeof text === 'string' ? [{ path: [...base, 'args', index], text }] : [],
  )
}

/**
 * Secret references must be well formed (`${keychain:NAME}`, `${env:VAR}`, `${session:NAME}`;
 * `${input:ID}` in VS Code files); literal credentials are warnings that suggest the keychain.
 */
export function checkSecrets(reporter: EntryReporter): void {
  const { value } = reporter.entry
  for (const { path, key, text } of secretValues(value)) {
    const doc = reporter.docOf(String(path[0]))
    const extraKinds = doc.form === 'servers' ? ['input'] : []
    const { references, problems } = scanReferences(text, extraKinds)
    for (const problem of problems) {
      reporter.report(path, 'error', 'malformed_reference', problem.message, {
        index: problem.start,
      })
    }
    for (const reference of references.filter((r) => r.kind === 'input')) {
      const input = doc.inputs.get(reference.name)
      if (!input) {
        reporter.report(
          path,
          'error',
          'unknown_input',
          `'\${input:${reference.name}}' matches no entry of "inputs": declare it there or write \${keychain:${reference.name}}`,
          { index: reference.start },
        )
      } else if (!input.password) {
        reporter.report(
          path,
          'warning',
          'input_reference',
          `'\${input:${reference.name}}' is read from the keychain as \${keychain:${reference.name}} (the console does not prompt): set it in Config → Secrets`,
          { index: reference.start },
        )
      }
    }
    const reasons = path[0] === 'url' ? urlSecretReasons(text) : [plaintextSecretReason(key, text)]
    for (const reason of reasons.filter((r): r is string => r !== undefined)) {
      const replacement = path[0] === 'url' ? '${keychain:NAME}' : suggestedReplacement(key, text)
      reporter.report(
        path,
        'warning',
        'plaintext_secret',
        `looks like a plaintext secret (${reason}): store it in the keychain (Config → Secrets) and write "${replacement}" instead`,
      )
    }
  }
  for (const { path, text } of argTexts([], value)) {
    for (const problem of scanReferences(text).problems) {
      reporter.report(path, 'error', 'malformed_reference', problem.message, {
        index: problem.start,
      })
    }
  }
  for (const { path, text } of unresolvedValues(value)) {
    if (!hasReference(text.replace(APP_PLACEHOLDER, ''))) continue
    reporter.report(
      path,
      'warning',
      'reference_not_resolved',
      "references are resolved only in url, headers, env and a stdio server's args: pass the secret through env instead",
    )
  }
}
