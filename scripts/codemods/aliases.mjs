#!/usr/bin/env node
// Rewrites import specifiers to the rule of docs/architecture.md ("Import aliases"): an import
// of another layer uses that layer's alias from package.json `imports` (`#shared/…`, `#core/…`),
// an import inside the same layer folder stays relative. Idempotent: a second run changes nothing.
//
//   node scripts/codemods/aliases.mjs [--check] [--no-format] [folder or file …]
//
// Folders default to src, bench and e2e. Reads import/export declarations, `import()`,
// `import('…')` types, `require()` and `vi.mock()`-style calls with TypeScript's own parser, and
// replaces only the specifier's text; Prettier then re-wraps the files it changed (an import that
// got shorter may now fit on one line). --check writes nothing and exits 1 if a file would change.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, posix, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const require = createRequire(join(root, 'package.json'))
const ts = require('typescript')

const args = process.argv.slice(2)
const check = args.includes('--check')
const format = !args.includes('--no-format')
const targets = args.filter((a) => !a.startsWith('--'))
const folders = targets.length > 0 ? targets : ['src', 'bench', 'e2e']

/**
 * The aliases of package.json: `#shared/*` → `./src/shared/*.ts` gives
 * { name: '#shared/', dir: 'src/shared', ext: '.ts' }. An alias whose target ends in `*` maps whole
 * file names (ext ''); one ending in `*.ts` maps specifiers without an extension to .ts files.
 */
const aliases = Object.entries(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).imports)
  .map(([key, target]) => {
    const match = typeof target === 'string' && /^\.\/(.+)\/\*(\.[a-z]+)?$/.exec(target)
    if (!key.endsWith('/*') || !match) {
      throw new Error(
        `package.json imports: ${key} → ${JSON.stringify(target)} is not "#x/*" → "./dir/*[.ext]"`,
      )
    }
    return { name: key.slice(0, -1), dir: match[1], ext: match[2] ?? '' }
  })
  // The most specific folder first: src/main/core is #core's, not #main's.
  .sort((a, b) => b.dir.length - a.dir.length)

/** The alias whose folder holds a repository path (posix), if any. */
const layerOf = (path) => aliases.find((a) => path.startsWith(`${a.dir}/`))

const SOURCE = /\.(ts|tsx|mts|cts)$/
const SKIP = new Set(['node_modules', 'out', 'corpus'])

function* walk(path) {
  const stat = statSync(path)
  if (stat.isFile()) {
    if (SOURCE.test(path)) yield path
    return
  }
  for (const entry of readdirSync(path).sort()) {
    if (!SKIP.has(entry) && !entry.startsWith('.')) yield* walk(join(path, entry))
  }
}

/** The module a specifier names, as a repository path without the alias's extension. */
function targetOf(file, spec) {
  if (spec.startsWith('./') || spec.startsWith('../')) {
    return posix.normalize(posix.join(posix.dirname(file), spec))
  }
  const alias = aliases.find((a) => spec.startsWith(a.name))
  return alias && `${alias.dir}/${spec.slice(alias.name.length)}`
}

/** The specifier the rule asks for, or undefined to leave this one as it is. */
function preferred(file, spec) {
  const target = targetOf(file, spec)
  const to = target && layerOf(target)
  if (!to) return undefined
  const path = join(root, target + to.ext)
  if (!existsSync(path) || !statSync(path).isFile()) return undefined
  if (to === layerOf(file)) {
    if (!spec.startsWith('#')) return undefined
    const rel = posix.relative(posix.dirname(file), target)
    return rel.startsWith('../') ? rel : `./${rel}`
  }
  return to.name + target.slice(to.dir.length + 1)
}

const line = (source, pos) => source.getLineAndCharacterOfPosition(pos).line + 1

const MOCKS = new Set(['mock', 'doMock', 'unmock', 'doUnmock', 'importActual', 'importMock'])

/** Every string literal that names a module. */
function specifiers(source) {
  const found = []
  const literal = (node) => node && ts.isStringLiteralLike(node) && found.push(node)
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier)
    else if (ts.isExternalModuleReference(node)) literal(node.expression)
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      literal(node.argument.literal)
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression
      const named =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        (ts.isPropertyAccessExpression(callee) &&
          ts.isIdentifier(callee.expression) &&
          callee.expression.text === 'vi' &&
          MOCKS.has(callee.name.text))
      if (named) literal(node.arguments[0])
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const changed = []
let rewritten = 0
for (const folder of folders) {
  if (!existsSync(join(root, folder))) continue
  for (const path of walk(join(root, folder))) {
    const file = relative(root, path).split(sep).join('/')
    const text = readFileSync(path, 'utf8')
    const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
    const edits = []
    for (const node of specifiers(source)) {
      const next = preferred(file, node.text)
      if (next === undefined || next === node.text) continue
      const start = node.getStart(source)
      const quote = text[start]
      edits.push({ start, end: node.getEnd(), text: quote + next + quote })
      if (check) console.log(`${file}:${line(source, start)}: '${node.text}' should be '${next}'`)
    }
    if (edits.length === 0) continue
    let out = text
    for (const edit of edits.reverse()) {
      out = out.slice(0, edit.start) + edit.text + out.slice(edit.end)
    }
    changed.push(file)
    rewritten += edits.length
    if (!check) writeFileSync(path, out)
  }
}

if (check) {
  if (changed.length > 0) {
    console.log(
      `${rewritten} import(s) in ${changed.length} file(s) break the rule of docs/architecture.md ` +
        '("Import aliases"): `node scripts/codemods/aliases.mjs` rewrites them.',
    )
    process.exit(1)
  }
} else {
  if (format && changed.length > 0) {
    const prettier = join(root, 'node_modules/prettier/bin/prettier.cjs')
    execFileSync(process.execPath, [prettier, '--write', '--log-level', 'warn', ...changed], {
      cwd: root,
      stdio: 'inherit',
    })
  }
  console.log(`${rewritten} import(s) rewritten in ${changed.length} file(s)`)
}
