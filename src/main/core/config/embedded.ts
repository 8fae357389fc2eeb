import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { appRoot } from '../app-root'
import { APP_PLACEHOLDER } from '#shared/config/references'
import type { Diagnostic } from '#shared/model/registry'

/**
 * The embedded default registry: `resources/default-registry.json`, used when no rag-mcp.json
 * is found. Its `command`, `args` and `cwd` (also under `launch`) may contain `${app:node}` (the
 * Node executable that runs the demo servers), `${app:demo}` (absolute path of the built
 * `out/main/demo.js`) and `${app:root}` (the app's folder). They stay in the text — a save of the
 * demo registry to a file keeps them, not this machine's paths — and are expanded in the
 * values once parsed, in any registry file (see {@link appPlaceholders}).
 */

/** `resources/default-registry.json` of the app. */
export const defaultEmbeddedFile = (): string =>
  join(appRoot(), 'resources', 'default-registry.json')
/** The built demo servers' entry, `out/main/demo.js`. */
export const defaultDemoEntry = (): string => join(appRoot(), 'out', 'main', 'demo.js')

/** Overrides of the template path and the placeholder values (tests, packaging). */
export interface EmbeddedOptions {
  /** The registry template; default `resources/default-registry.json` beside the bundle. */
  file?: string
  /** Value of `${app:node}`; default `process.execPath`. */
  node?: string
  /** Value of `${app:demo}`; default `demo.js` beside the running bundle. */
  demo?: string
  /** Value of `${app:root}` (the demo servers' working folder); default the app's root. */
  root?: string
}

/**
 * A folder a child process can start in: in a packaged app the root is the `app.asar` archive
 * (readable through Electron, but no working directory), so the folder holding it.
 */
const workingFolder = (root: string): string => (root.endsWith('.asar') ? dirname(root) : root)

/** The embedded registry, ready to parse. */
export interface EmbeddedRegistry {
  /** Where the template was read from (diagnostics point there). */
  file: string
  /** The template's text, `${app:…}` placeholders kept; `{}` when the template is missing. */
  text: string
  /** A warning when the template is missing or unreadable. */
  diagnostics: Diagnostic[]
  /** Expands the `${app:…}` placeholders of a value; default {@link appPlaceholders}. */
  expand?: (value: string) => string
}

/**
 * Expands `${app:node}`, `${app:demo}` and `${app:root}` in a value to this app's Node
 * executable, demo servers bundle and folder.
 */
export function appPlaceholders(
  options: Pick<EmbeddedOptions, 'node' | 'demo' | 'root'> = {},
): (value: string) => string {
  const values: Record<string, string> = {
    node: options.node ?? process.execPath,
    demo: options.demo ?? defaultDemoEntry(),
    root: workingFolder(options.root ?? appRoot()),
  }
  return (value) => value.replace(APP_PLACEHOLDER, (_match, name: string) => values[name]!)
}

/** Reads the embedded default registry; a missing template is an empty registry plus a warning. */
export function loadEmbeddedRegistry(options: EmbeddedOptions = {}): EmbeddedRegistry {
  const file = options.file ?? defaultEmbeddedFile()
  const expand = appPlaceholders(options)
  let template: string
  try {
    template = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const what = code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? 'error'})`
    return {
      file,
      text: '{}',
      expand,
      diagnostics: [
        {
          severity: 'warning',
          file,
          path: '',
          line: 1,
          column: 1,
          rule: 'embedded_missing',
          message: `the embedded default registry ${what}: the console runs with no servers; create config/overrides/rag-mcp.json in the data folder or pass --config FILE`,
        },
      ],
    }
  }
  return { file, text: template, diagnostics: [], expand }
}
