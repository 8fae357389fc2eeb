import { decodeSafely } from '../text/decode'

/**
 * Heuristics that spot a credential written into rag-mcp.json in plain text. They only produce
 * warnings, and the warnings never repeat the value.
 */

const AUTH_SCHEME = /^(Bearer|Token|Basic|ApiKey)\s+(\S+)/i
const KNOWN_PREFIX =
  /(rbx_(live|test)_[A-Za-z0-9]{6,}|sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|glpat-[\w-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,})/
const SECRET_NAME =
  /(token|secret|passw(or)?d|api[-_]?key|apikey|credential|private[-_]?key|access[-_]?key|^authorization$)/i
const TOKEN_CHARS = /^[A-Za-z0-9_\-+/=.~]+$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const HEX = /^[0-9a-f]+$/i
const REFERENCE = /\$\{[^}]*\}/g

/** Bits per character of a string's character distribution. */
function entropy(text: string): number {
  const counts = new Map<string, number>()
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1)
  let bits = 0
  for (const count of counts.values()) {
    const p = count / text.length
    bits -= p * Math.log2(p)
  }
  return bits
}

/** Made of words: every part between `-`, `_` and `.` is letters only or short (`v1`). */
const wordLike = (value: string): boolean =>
  value.split(/[-_.]/).every((part) => /^[A-Za-z]*$/.test(part) || part.length <= 3)

/**
 * A file path: absolute, relative, from home, or from a drive (`/tmp/x-a8Xk2P/log`,
 * `./data`, `~/out`, `C:/Temp`). Its temporary folder's random name is no credential.
 */
const FILE_PATH = /^(\/|\.{1,2}[\\/]|~[\\/]|[A-Za-z]:[\\/])/

/**
 * A long, random-looking token: mixed letters and digits, high entropy, not an id format, a
 * file path nor a name made of words (`rag-tools-v1.unauthorized`).
 */
export function looksRandomToken(value: string): boolean {
  if (value.length < 24 || !TOKEN_CHARS.test(value) || FILE_PATH.test(value)) return false
  if (UUID.test(value) || HEX.test(value) || wordLike(value)) return false
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(value)).length
  return classes >= 2 && /[0-9]/.test(value) && entropy(value) >= 3.5
}

const isLiteralWord = (value: string): boolean =>
  value.length >= 8 && !/\s/.test(value) && !/^(https?:|\/|\.|~)/.test(value)

/**
 * Why a header, env or query value looks like a plaintext secret, or undefined. `key` is the
 * header, variable or query parameter name. Parts written as references are not considered.
 */
export function plaintextSecretReason(key: string, value: string): string | undefined {
  const literal = value.replace(REFERENCE, '')
  const scheme = AUTH_SCHEME.exec(literal.trim())
  if (scheme && !value.includes('${')) return `a literal ${scheme[1]} credential`
  if (KNOWN_PREFIX.test(literal)) return 'a known API key format'
  if (value.includes('${')) return undefined
  if (SECRET_NAME.test(key) && isLiteralWord(value)) return `a literal value for '${key}'`
  if (looksRandomToken(value)) return 'a long random-looking token'
  return undefined
}

/** A keychain name to suggest for a value stored under `key`. */
function suggestedSecretName(key: string): string {
  const name = key.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '')
  return name === '' || /^authorization$/i.test(name) ? 'token' : name
}

/** The replacement to suggest, e.g. `Bearer ${keychain:token}` or `${keychain:KB_TOKEN}`. */
export function suggestedReplacement(key: string, value: string): string {
  const scheme = AUTH_SCHEME.exec(value.trim())
  const reference = `\${keychain:${suggestedSecretName(key)}}`
  return scheme ? `${scheme[1]} ${reference}` : reference
}

/**
 * How a plaintext credential moves to the keychain: the name to suggest, the value to store
 * (the token alone for `Bearer <token>`) and the reference that replaces it under a name.
 */
export function keychainMove(
  key: string,
  value: string,
): { name: string; secret: string; reference: (name: string) => string } {
  const scheme = AUTH_SCHEME.exec(value.trim())
  const whole = scheme?.[0] === value.trim()
  return {
    name: suggestedSecretName(key),
    secret: scheme && whole ? scheme[2]! : value,
    reference: (name) =>
      scheme && whole ? `${scheme[1]} \${keychain:${name}}` : `\${keychain:${name}}`,
  }
}

/** Plaintext-looking credentials inside a URL: a userinfo password or secret query values. */
export function urlSecretReasons(url: string): string[] {
  return urlSecrets(url).map(({ reason }) => reason)
}

/** A URL's userinfo password and secret-looking query values, each as written and why. */
function urlSecrets(url: string): { value: string; reason: string }[] {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return []
  const found: { value: string; reason: string }[] = []
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? ''
  const at = authority.lastIndexOf('@')
  if (at >= 0 && authority.slice(0, at).includes(':')) {
    const password = authority.slice(authority.indexOf(':') + 1, at)
    if (!password.startsWith('${')) found.push({ value: password, reason: 'a password in the URL' })
  }
  const query = url.split('#')[0]!.split('?')[1]
  for (const pair of query ? query.split('&') : []) {
    const eq = pair.indexOf('=')
    if (eq < 0) continue
    const name = pair.slice(0, eq)
    const value = pair.slice(eq + 1)
    const reason = plaintextSecretReason(name, decodeSafely(value))
    if (reason) found.push({ value, reason: `${reason} in query parameter '${name}'` })
  }
  return found
}

/** What a masked value reads as in views sent to the renderer. */
export const MASK = '••••••'

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string')

const maskMap = (map: unknown): unknown =>
  map && typeof map === 'object' && !Array.isArray(map)
    ? Object.fromEntries(
        Object.entries(map).map(([key, value]) => [
          key,
          typeof value === 'string' && plaintextSecretReason(key, value) ? MASK : value,
        ]),
      )
    : map

function maskUrl(url: string): string {
  if (urlSecretReasons(url).length === 0) return url
  const [beforeQuery] = url.split(/[?#]/)
  return `${beforeQuery!.replace(/\/\/[^/@]*@/, `//${MASK}@`)}${url.includes('?') ? `?${MASK}` : ''}`
}

const PATH_LIKE = /^(\/|\.|~|[A-Za-z]:[\\/])/

/** The option name an argument sets: `--api-key` of `--api-key` or `--api-key=…`. */
const OPTION = /^--?([A-Za-z][\w.-]*)$/

/**
 * The plaintext-looking secret an argument carries, or undefined: the value of `--name=value`
 * and of `--name value` when the name or value says secret, or the argument itself when it
 * looks like a key or token.
 */
function argSecret(args: readonly string[], index: number): string | undefined {
  const arg = args[index]!
  const eq = /^(--?[A-Za-z][\w.-]*)=(.*)$/s.exec(arg)
  if (eq) return plaintextSecretReason(eq[1]!.replace(/^-+/, ''), eq[2]!) ? eq[2] : undefined
  if (OPTION.test(arg)) return undefined
  const option = OPTION.exec(args[index - 1] ?? '')?.[1] ?? ''
  // A file path is long and random-looking too, and shows which script or file is used.
  if (PATH_LIKE.test(arg) && !SECRET_NAME.test(option)) return undefined
  return plaintextSecretReason(option, arg) ? arg : undefined
}

/**
 * Command-line arguments with the secret each carries ({@link argSecret}) replaced by what
 * `replace` makes of it: `name` is the option it belongs to (`api-key` of `--api-key x` or
 * `--api-key=x`), or `token` for a key-shaped argument of its own.
 */
export function replaceArgSecrets(
  args: readonly string[],
  replace: (name: string, secret: string) => string,
): string[] {
  return args.map((arg, index) => {
    const secret = argSecret(args, index)
    if (secret === undefined) return arg
    const option =
      /^--?([A-Za-z][\w.-]*)=/s.exec(arg)?.[1] ?? OPTION.exec(args[index - 1] ?? '')?.[1] ?? ''
    return arg.slice(0, arg.length - secret.length) + replace(option || 'token', secret)
  })
}

/** Command-line arguments with the secrets {@link argSecret} finds masked. */
export function maskArgs(args: readonly string[]): string[] {
  return replaceArgSecrets(args, () => MASK)
}

/**
 * The URL with its userinfo password and secret-looking query values (as written, still
 * percent-encoded) replaced by what `replace` makes of them: `name` is the query parameter's, or
 * `password`. Everything else stays as written.
 */
export function replaceUrlSecrets(
  url: string,
  replace: (name: string, secret: string) => string,
): string {
  const secrets = new Set(urlSecrets(url).map(({ value }) => value))
  if (secrets.size === 0) return url
  const authority = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(url)
  let out = url
  if (authority) {
    const [whole, scheme, userinfoHost] = authority as unknown as [string, string, string]
    const at = userinfoHost.lastIndexOf('@')
    const colon = userinfoHost.indexOf(':')
    const password = at >= 0 && colon >= 0 && colon < at ? userinfoHost.slice(colon + 1, at) : ''
    if (secrets.has(password)) {
      out = `${scheme}${userinfoHost.slice(0, colon + 1)}${replace('password', password)}${userinfoHost.slice(at)}${url.slice(whole.length)}`
    }
  }
  const hash = out.indexOf('#')
  const beforeHash = hash < 0 ? out : out.slice(0, hash)
  const question = beforeHash.indexOf('?')
  if (question < 0) return out
  const query = beforeHash
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq < 0 || !secrets.has(pair.slice(eq + 1))) return pair
      return `${pair.slice(0, eq + 1)}${replace(pair.slice(0, eq), pair.slice(eq + 1))}`
    })
    .join('&')
  return `${beforeHash.slice(0, question + 1)}${query}${hash < 0 ? '' : out.slice(hash)}`
}

/**
 * A copy of an entry or effective config with plaintext-looking secrets in `url`, `headers`,
 * `env`, `args` and `launch.env`/`launch.args` replaced by a mask, for views that cross to the
 * renderer.
 */
export function maskPlaintextSecrets<T extends object>(entry: T): T {
  const out = { ...entry } as Record<string, unknown>
  if (typeof out.url === 'string') out.url = maskUrl(out.url)
  if ('headers' in out) out.headers = maskMap(out.headers)
  if ('env' in out) out.env = maskMap(out.env)
  if (isStringList(out.args)) out.args = maskArgs(out.args)
  if (out.launch && typeof out.launch === 'object') {
    const launch = { ...(out.launch as Record<string, unknown>) }
    if ('env' in launch) launch.env = maskMap(launch.env)
    if (isStringList(launch.args)) launch.args = maskArgs(launch.args)
    out.launch = launch
  }
  return out as T
}

/**
 * The credentials an entry or effective config holds in plain text (the values the mask hides,
 * the token after an auth scheme, a URL's password and secret query values, raw and decoded,
 * and secret-looking stdio arguments),
 * so they can be blanked out of errors and output like keychain secrets.
 */
export function plaintextSecretValues(entry: object): string[] {
  const out = new Set<string>()
  const fromMap = (map: unknown): void => {
    if (!map || typeof map !== 'object' || Array.isArray(map)) return
    for (const [key, value] of Object.entries(map)) {
      if (typeof value !== 'string' || !plaintextSecretReason(key, value)) continue
      // `Bearer <token>`: the token is the secret; the scheme stays readable (`Bearer [redacted]`).
      const scheme = AUTH_SCHEME.exec(value.trim())
      if (scheme) out.add(scheme[2]!)
      if (scheme?.[0] === value.trim()) continue
      for (const part of value.split(REFERENCE)) if (part.trim()) out.add(part.trim())
    }
  }
  const fromArgs = (args: unknown): void => {
    if (!isStringList(args)) return
    for (let index = 0; index < args.length; index++) {
      const secret = argSecret(args, index)
      for (const part of secret?.split(REFERENCE) ?? []) if (part.trim()) out.add(part.trim())
    }
  }
  const { url, headers, env, args, launch } = entry as Record<string, unknown>
  if (typeof url === 'string') {
    for (const { value } of urlSecrets(url)) {
      out.add(value)
      out.add(decodeSafely(value))
    }
  }
  fromMap(headers)
  fromMap(env)
  fromArgs(args)
  if (launch && typeof launch === 'object') {
    fromMap((launch as { env?: unknown }).env)
    fromArgs((launch as { args?: unknown }).args)
  }
  return [...out]
}
