import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The docs' relative links must lead somewhere in a fresh clone: to a file the repository holds,
 * and to a heading of it when they name one. A path outside the repository (`../shared/…`)
 * exists only on the machine it was written on, whether it is a link or a path in code.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** The markdown a reader of the repository meets: the README, docs/, the bench reports. */
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'bench/PROFILE.md',
  'bench/RESULTS.md',
]

interface Reference {
  /** 1-based line in the markdown. */
  line: number
  target: string
}

/** The text with fenced code blocks blanked, line numbers kept. */
function withoutFences(markdown: string): string[] {
  let fence: string | undefined
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence === undefined && marker) {
      fence = marker
      return ''
    }
    if (fence !== undefined) {
      if (marker?.startsWith(fence)) fence = undefined
      return ''
    }
    return line
  })
}

const CODE_SPAN = /(`+)(.+?)\1/g

/** Relative link and image targets outside code (external URLs and `mailto:` left out). */
function relativeLinks(markdown: string): Reference[] {
  return withoutFences(markdown).flatMap((text, index) =>
    [...text.replace(CODE_SPAN, '').matchAll(/\]\((?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\)/g)]
      .map((match) => (match[1] ?? match[2])!)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ line: index + 1, target })),
  )
}

/** Paths in code spans that climb out of the file's folder (`../…`). */
function climbingPaths(markdown: string): Reference[] {
  return withoutFences(markdown).flatMap((text, index) =>
    [...text.matchAll(CODE_SPAN)]
      .map((match) => match[2]!.trim())
      .filter((code) => code.startsWith('../'))
      .map((target) => ({ line: index + 1, target })),
  )
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as `-`. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const line of withoutFences(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1]
    if (heading === undefined) continue
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

/** Every file a clone holds: tracked, or new and not ignored. */
function shippedFiles(): Set<string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  return new Set(listed.split('\n').filter(Boolean))
}

/** What is wrong with `target`, linked from `doc`; undefined when it resolves. */
function problem(doc: string, target: string, shipped: Set<string>): string | undefined {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined]
  const file = path ? relative(ROOT, resolve(ROOT, dirname(doc), decodeURI(path))) : doc
  if (file.startsWith('..')) return 'outside the repository'
  const isFile = shipped.has(file)
  if (!isFile && ![...shipped].some((name) => name.startsWith(`${file}/`))) {
    return 'no such file in the repository'
  }
  if (anchor === undefined || !isFile || !file.endsWith('.md')) return undefined
  const anchors = headingAnchors(readFileSync(join(ROOT, file), 'utf8'))
  return anchors.has(anchor) ? undefined : `no heading #${anchor} in ${file}`
}

describe('the link checker', () => {
  it('finds relative links in prose and tables, not in code or external ones', () => {
    const markdown = [
      'See [a](docs/a.md) and ![b](img/b.png "title").',
      '| [c](c.md#part) | [web](https://example.com) | [mail](mailto:x@example.com) |',
      'Code `[d](d.md)` is no link; [e](<e f.md>) is one.',
      '```md',
      '[g](g.md)',
      '```',
      '[same page](#here)',
    ].join('\n')
    expect(relativeLinks(markdown)).toEqual([
      { line: 1, target: 'docs/a.md' },
      { line: 1, target: 'img/b.png' },
      { line: 2, target: 'c.md#part' },
      { line: 3, target: 'e f.md' },
      { line: 7, target: '#here' },
    ])
  })

  it('finds code paths that leave the folder', () => {
    expect(climbingPaths('see `../shared/specs/` or `./x` and `a/../b`\n```\n`../y`\n```')).toEqual(
      [{ line: 1, target: '../shared/specs/' }],
    )
  })

  it("names headings' anchors as GitHub does", () => {
    const markdown = [
      '# Where the time goes',
      '## `rag-console monitor`',
      '## The `oauth` block',
      '### Pool: cost per call (stdio, SSE)',
      '## Reading them',
      '## Reading them',
      '```sh',
      '# not a heading',
      '```',
    ].join('\n')
    expect([...headingAnchors(markdown)]).toEqual([
      'where-the-time-goes',
      'rag-console-monitor',
      'the-oauth-block',
      'pool-cost-per-call-stdio-sse',
      'reading-them',
      'reading-them-1',
    ])
  })
})

describe('the docs', () => {
  const shipped = shippedFiles()

  it.each(DOCS)('%s: every relative link resolves to a file the repository ships', (doc) => {
    const markdown = readFileSync(join(ROOT, doc), 'utf8')
    const broken = relativeLinks(markdown).flatMap(({ line, target }) => {
      const why = problem(doc, target, shipped)
      return why ? [`${doc}:${line} ${target}: ${why}`] : []
    })
    expect(broken).toEqual([])
  })

  it.each(DOCS)('%s: no path in code points outside the repository', (doc) => {
    const markdown = readFileSync(join(ROOT, doc), 'utf8')
    const outside = climbingPaths(markdown).flatMap(({ line, target }) =>
      relative(ROOT, resolve(ROOT, dirname(doc), target)).startsWith('..')
        ? [`${doc}:${line} ${target}: outside the repository`]
        : [],
    )
    expect(outside).toEqual([])
  })
})
