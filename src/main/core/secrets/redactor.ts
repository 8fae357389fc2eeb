import { REDACTED } from '#shared/redacted'
import { isOnlyRefs } from './refs'
import { redactSignedLinks } from './signed-links'
import type { Redactor } from './types'

export { REDACTED }

/**
 * Values shorter than this are not registered: they would blank out ordinary words and numbers
 * everywhere ("admin", "12345"), and no real API key or token is that short. Such values are
 * still caught where the header patterns apply (`Authorization: …`, `X-API-Key: …`, `Bearer …`).
 */
export const MIN_SECRET_LENGTH = 8

/** Object keys whose string values are credentials (compared lower-case, `_` read as `-`). */
export const SENSITIVE_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'apikey',
  'x-auth-token',
  'auth-token',
  'access-token',
  'refresh-token',
  'id-token',
  'bearer',
  'user-token',
  'oauth-token',
  'capability-token',
  'client-secret',
  'password',
])

/** The header words {@link HEADER_TEXT_RE} looks for (an expression's alternatives). */
const HEADER_WORDS = String.raw`authorization|proxy-authorization|x-api-key|api[-_]?key|x-auth-token|(?:access|refresh|id|capability|oauth|user|auth)[-_]token|client[-_]secret|password`

/**
 * `Authorization: Bearer x`, `X-API-Key=x`, `"api_key": "x"`, … in free text. A scheme word
 * followed by a space is never the value (`Bearer [redacted]` stays as it is).
 */
const HEADER_TEXT_RE = new RegExp(
  String.raw`\b(${HEADER_WORDS})(["']?\s*[:=]\s*["']?)((?:Bearer|Basic|Token)\s+)?(?!(?:Bearer|Basic|Token)\s)([^\s"',;&<>[\]]+)`,
  'gi',
)

/** `Bearer <token>` anywhere in free text. */
const BEARER_TEXT_RE = /\b(Bearer|Basic)(\s+)([A-Za-z0-9\-._~+/]{8,}=*)/gi

const SCHEME_RE = /^((?:Bearer|Basic|Token)\s+)/i

/** A whitespace character as JSON text writes it: itself, or escaped (`\n`, `\u000b`). */
const JSON_SPACE = String.raw`(?:\s|\\[bfnrt]|\\u[0-9a-f]{4})`

/**
 * What JSON text must hold where a string or key inside it has anything the patterns above would
 * redact, whatever JSON.stringify escaped: a header word followed by `:` or `=` (maybe past a
 * quote, escaped or not, and whitespace, escaped or not: a key's `"password":` or prose's
 * `Password = x` inside a text that is itself JSON), or `Bearer`/`Basic` and whitespace before
 * 8 token characters. Text without it (and without a registered value) has nothing to redact,
 * so a reply that only mentions a password in prose is not walked. `u`: case folding as wide as
 * `toLowerCase` (`K`, which sensitive keys are compared in).
 */
const CREDENTIAL_JSON_RE = new RegExp(
  // Built from the same words the patterns and the sensitive keys use, so neither can outgrow it.
  String.raw`(?:${HEADER_WORDS}|${[...SENSITIVE_KEYS].map((key) => key.replaceAll('-', '[-_]')).join('|')})` +
    String.raw`(?:\\?["'])?${JSON_SPACE}*[:=]|(?:bearer|basic)${JSON_SPACE}+[a-z0-9\-._~+/]{8}`,
  'iu',
)

/**
 * Stems that every match of {@link CREDENTIAL_JSON_RE} holds: each header word and sensitive key
 * contains one (a test checks every key), and `bearer`/`basic` are stems themselves. Same flags,
 * so the same case folding: text without any stem cannot match. Searching for these first costs
 * ~4 µs over a 5 KB search reply where the whole expression costs ~33 µs.
 */
const CREDENTIAL_STEM_RE = /auth|api|token|secret|passw|cookie|bearer|basic/iu

/** Whether JSON text could hold something the patterns redact ({@link CREDENTIAL_JSON_RE}). */
export function mayHoldCredential(json: string): boolean {
  return CREDENTIAL_STEM_RE.test(json) && CREDENTIAL_JSON_RE.test(json)
}

/**
 * `all`: registered values and credential-shaped text; `links`: those and the signatures of
 * signed links; `values`: registered values only; `stored`: those except the ones written in
 * rag-mcp.json itself.
 */
type Mode = 'all' | 'links' | 'values' | 'stored'

/** Modes that apply the credential patterns, not only the registered values. */
const withPatterns = (mode: Mode): boolean => mode === 'all' || mode === 'links'

/**
 * Deeper than this, a value is not walked (a hostile reply nested 50,000 levels would overflow
 * the stack) but replaced by {@link TOO_DEEP}: what cannot be checked is not let through.
 */
const MAX_DEPTH = 256
export const TOO_DEEP = '[nested too deeply]'

/**
 * Remembers secret values and blanks them out of strings and JSON-like values (deep, cycles
 * kept, a value returned unchanged, not copied, when it holds nothing to redact). {@link redact} also applies
 * the header patterns; {@link redactValues} only replaces registered values, for payloads whose
 * text must round-trip unchanged (a config file shown in the editor, a signed URL).
 */
export class SecretRedactor implements Redactor {
  private readonly values = new Set<string>()
  /** Plaintext credentials written in rag-mcp.json (a literal key, a URL's password). */
  private readonly fileValues = new Set<string>()
  private valuesRe: RegExp | null = null
  private storedRe: RegExp | null = null

  /** Number of registered values (including their encoded forms). */
  get size(): number {
    return this.values.size + this.fileValues.size
  }

  add(value: string): void {
    if (this.register(this.values, value)) this.storedRe = null
  }

  /**
   * Registers a credential written in plain text in rag-mcp.json: blanked everywhere except by
   * {@link redactStoredValues}, which the config file's own text goes through so that the editor
   * shows (and saves back) what its author wrote.
   */
  addFromFile(value: string): void {
    this.register(this.fileValues, value)
  }

  private register(set: Set<string>, value: string): boolean {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return false
    let added = false
    for (const form of encodedForms(value)) {
      if (!set.has(form)) {
        set.add(form)
        added = true
      }
    }
    if (added) this.valuesRe = null
    return added
  }

  /** Registered values and credential-shaped text (header values, `Bearer …`, sensitive keys). */
  redact<T>(value: T): T {
    return this.apply(value, 'all')
  }

  /** Registered values only; everything else is left exactly as it was. */
  redactValues<T>(value: T): T {
    return this.apply(value, 'values')
  }

  /**
   * {@link redact}, and every signed link's signature and token (`?sig=…`, `X-Amz-Signature=…`)
   * replaced too: for what is kept on disk, where a link that opens for whoever holds it is a
   * credential.
   */
  redactLinks<T>(value: T): T {
    return this.apply(value, 'links')
  }

  /** {@link redactValues} without the values added by {@link addFromFile}. */
  redactStoredValues<T>(value: T): T {
    return this.apply(value, 'stored')
  }

  /**
   * {@link redact} for a value whose JSON text is at hand (a protocol message): one search of
   * the text rules out most values without walking them.
   */
  redactJson<T>(value: T, json: string): T {
    const known = this.knownRe('all')
    if (!(known && testOnce(known, json)) && !mayHoldCredential(json)) return value
    return this.redact(value)
  }

  /** {@link redact} for one string. */
  redactText(text: string): string {
    return this.text(text, 'all')
  }

  private apply<T>(value: T, mode: Mode): T {
    if (!this.needs(value, mode, new Set())) return value
    return this.copy(value, mode, new Map()) as T
  }

  private text(text: string, mode: Mode): string {
    let out = text
    const known = this.knownRe(mode)
    if (known) out = out.replace(known, REDACTED)
    if (!withPatterns(mode)) return out
    if (mode === 'links') out = redactSignedLinks(out)
    out = out.replace(HEADER_TEXT_RE, (whole, key: string, sep: string, scheme = '', token) =>
      token.startsWith('${') || isJsonLiteralValue(sep, scheme)
        ? whole
        : `${key}${sep}${scheme}${REDACTED}`,
    )
    return out.replace(BEARER_TEXT_RE, (whole, scheme: string, space: string, token: string) =>
      looksLikeToken(token) ? `${scheme}${space}${REDACTED}` : whole,
    )
  }

  private textNeeds(text: string, mode: Mode): boolean {
    const known = this.knownRe(mode)
    if (known && testOnce(known, text)) return true
    if (!withPatterns(mode)) return false
    // Most strings hold no header, scheme or link at all: rule those out without building a copy.
    const link = mode === 'links' && text.includes('://')
    if (!link && !testOnce(HEADER_TEXT_RE, text) && !testOnce(BEARER_TEXT_RE, text)) return false
    return this.text(text, mode) !== text
  }

  /** A sensitive key's value: blanked unless it is only references (`Bearer ${keychain:k}`). */
  private keyValue(value: string): string {
    const scheme = SCHEME_RE.exec(value)?.[1] ?? ''
    const rest = value.slice(scheme.length)
    if (isOnlyRefs(rest) || rest === REDACTED) return value
    return `${scheme}${REDACTED}`
  }

  private needs(value: unknown, mode: Mode, seen: Set<object>, depth = 0): boolean {
    if (typeof value === 'string') return this.textNeeds(value, mode)
    if (!isWalkable(value) || seen.has(value)) return false
    if (depth > MAX_DEPTH) return true
    seen.add(value)
    if (hasToJson(value)) return this.needs(value.toJSON(), mode, seen, depth + 1)
    if (value instanceof Error) {
      return Object.getOwnPropertyNames(value).some((key) =>
        this.needs((value as unknown as Record<string, unknown>)[key], mode, seen, depth + 1),
      )
    }
    for (const [key, child] of Object.entries(value)) {
      if (withPatterns(mode) && typeof child === 'string' && isSensitiveKey(key)) {
        if (this.keyValue(child) !== child) return true
      }
      if (this.needs(child, mode, seen, depth + 1)) return true
    }
    return false
  }

  private copy(value: unknown, mode: Mode, seen: Map<object, unknown>, depth = 0): unknown {
    if (typeof value === 'string') return this.text(value, mode)
    if (!isWalkable(value)) return value
    if (depth > MAX_DEPTH) return TOO_DEEP
    const done = seen.get(value)
    if (done !== undefined) return done
    // What JSON.stringify would write (a URL's href, a Date's ISO text).
    if (hasToJson(value)) return this.copy(value.toJSON(), mode, seen, depth + 1)

    if (value instanceof Error) {
      // Keep the prototype so `instanceof` and error serialisers still work.
      const copy = Object.create(Object.getPrototypeOf(value) as object) as Record<string, unknown>
      seen.set(value, copy)
      for (const key of Object.getOwnPropertyNames(value)) {
        // `stack` may be an accessor bound to the original: copy what it reads as.
        const { enumerable } = Object.getOwnPropertyDescriptor(value, key)!
        const own = (value as unknown as Record<string, unknown>)[key]
        Object.defineProperty(copy, key, {
          value: this.copy(own, mode, seen, depth + 1),
          enumerable: enumerable === true,
          writable: true,
          configurable: true,
        })
      }
      return copy
    }
    if (Array.isArray(value)) {
      const copy: unknown[] = []
      seen.set(value, copy)
      for (const item of value) copy.push(this.copy(item, mode, seen, depth + 1))
      return copy
    }
    const copy: Record<string, unknown> = {}
    seen.set(value, copy)
    for (const [key, child] of Object.entries(value)) {
      copy[key] =
        withPatterns(mode) && typeof child === 'string' && isSensitiveKey(key)
          ? this.keyValue(this.text(child, mode))
          : this.copy(child, mode, seen, depth + 1)
    }
    return copy
  }

  private knownRe(mode: Mode): RegExp | null {
    if (mode === 'stored') return (this.storedRe ??= alternation(this.values))
    return (this.valuesRe ??= alternation(new Set([...this.values, ...this.fileValues])))
  }
}

/**
 * The forms a value takes in what the console prints: as written, JSON-escaped up to three times
 * (JSON text quoted inside JSON, as `call` prints a tool's text block), URL-encoded (both
 * `encodeURIComponent` and form encoding), base64 / base64url, and hex in lower and upper case
 * (a byte is always two hex digits, so the value's own hex is inside any longer hex text).
 */
function encodedForms(value: string): Set<string> {
  const forms = new Set([
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
  ])
  let escaped = value
  for (let depth = 0; depth < 3; depth += 1) {
    escaped = JSON.stringify(escaped).slice(1, -1)
    forms.add(escaped)
  }
  const hex = Buffer.from(value, 'utf8').toString('hex')
  forms.add(hex)
  forms.add(hex.toUpperCase())
  for (const form of base64Forms(Buffer.from(value, 'utf8'))) {
    forms.add(form)
    forms.add(form.replaceAll('+', '-').replaceAll('/', '_'))
  }
  return forms
}

/**
 * The value's own base64, and for each of the three byte offsets it can sit at inside a longer
 * text (`user:password` in a Basic header) the characters that depend on its bytes only: any
 * base64 text holding the value holds one of them, so at most a few bits of it stay visible.
 */
function base64Forms(bytes: Buffer): string[] {
  const own = bytes.toString('base64')
  const forms = [own, own.replace(/=+$/, '')]
  for (let shift = 0; shift < 3; shift += 1) {
    const text = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64')
    forms.push(text.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6)))
  }
  return forms
}

/** One regular expression matching any of `values`, longest first so a value holding another is replaced whole. */
function alternation(values: Set<string>): RegExp | null {
  if (values.size === 0) return null
  const alternatives = [...values].sort((a, b) => b.length - a.length).map(escapeRe)
  return new RegExp(alternatives.join('|'), 'g')
}

/**
 * The JSON text of `value` with `redactor` applied, and the value that text is of: when the
 * redactor can tell from the text that nothing needs redacting (most values), the value and its
 * text as they are, without a walk; else the redacted copy and its text. `json` is the value's
 * text when the caller has it already.
 */
export function redactedJson<T>(
  redactor: Redactor,
  value: T,
  json = JSON.stringify(value),
): { clean: T; text: string } {
  const clean = redactor.redactJson ? redactor.redactJson(value, json) : redactor.redact(value)
  return { clean, text: clean === value ? json : JSON.stringify(clean) }
}

/** A redactor with no values registered yet. */
export function createRedactor(): SecretRedactor {
  return new SecretRedactor()
}

/**
 * Plain objects, arrays, errors, objects with `toJSON` and class instances (copied as plain
 * objects, as JSON would write them). Binary data and collections pass unchanged.
 */
function isWalkable(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false
  return !(
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof WeakMap ||
    value instanceof WeakSet ||
    value instanceof Promise ||
    value instanceof RegExp
  )
}

function hasToJson(value: object): value is { toJSON(): unknown } {
  return !(value instanceof Error) && typeof (value as { toJSON?: unknown }).toJSON === 'function'
}

function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(key.toLowerCase().replaceAll('_', '-'))
}

/**
 * A quoted key followed by an unquoted value (`"apiKey": null`, `"apiKey": no such entry`) is
 * a JSON literal or prose, not a credential string: JSON would quote a string value.
 */
function isJsonLiteralValue(separator: string, scheme: string): boolean {
  return /^["']/.test(separator) && !/["']$/.test(separator) && scheme === ''
}

/** Tells a credential from a word: "Bearer authentication" is prose, "Bearer eyJ0eX.1" is not. */
function looksLikeToken(token: string): boolean {
  return token.length >= 20 || /[0-9\-._~+/=]/.test(token)
}

function testOnce(re: RegExp, text: string): boolean {
  re.lastIndex = 0
  const found = re.test(text)
  re.lastIndex = 0
  return found
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
