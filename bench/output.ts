import { join, relative } from 'node:path'

/** Where one run's report goes. */
export interface OutputFiles {
  dir: string
  markdown: string
  json: string
}

/**
 * Full runs of every benchmark write the committed RESULTS.md; `--only` runs write beside it
 * (`RESULTS.only-<names>.md`, gitignored), so a partial run never replaces the full report;
 * quick runs go under out/.
 */
export function outputFiles(
  root: string,
  run: { quick: boolean; only?: string[] | undefined },
): OutputFiles {
  const dir = run.quick ? join(root, 'out/bench-quick') : join(root, 'bench')
  const suffix = run.only ? `.only-${run.only.join('-')}` : ''
  return {
    dir,
    markdown: join(dir, `RESULTS${suffix}.md`),
    json: join(dir, `results${suffix}.json`),
  }
}

/** The benchmark names of `--only=a,b`, checked against the known ones (they name files). */
export function parseOnly(value: string | undefined, known: string[]): string[] | undefined {
  if (value === undefined) return undefined
  const names = [...new Set(value.split(',').map((name) => name.trim()))].filter(Boolean)
  const unknown = names.filter((name) => !known.includes(name))
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(
      `--only=${value}: ${unknown.length ? `unknown benchmark ${unknown.join(', ')}` : 'names no benchmark'}; known: ${known.join(', ')}`,
    )
  }
  return names
}

/**
 * The line that ends every report: where the time goes and how to profile it are hand-written in
 * bench/PROFILE.md, linked from where the report is written rather than copied into each run.
 */
export function profileLink(root: string, files: OutputFiles): string {
  const target = relative(files.dir, join(root, 'bench/PROFILE.md')).split('\\').join('/')
  return `Where the time goes, and how to profile it: [bench/PROFILE.md](${target}).`
}
