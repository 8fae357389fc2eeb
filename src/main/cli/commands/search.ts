import { randomUUID } from 'node:crypto'
import { MAX_EXTRA_PHRASES, type ServerSearchResult } from '#shared/model/operations'
import type { CommandOptions } from '../command-table'
import { selectionOf } from '../args'
import { cliError, connectServers, withCore, type CliContext } from '../context'
import { exitOf, UsageError, type ExitCode } from '../exit-codes'
import { ms, table } from '../output'

function queryOf(command: string, words: string[]): string {
  if (words.length === 0)
    throw new UsageError(`${command} needs a QUERY (quote it if it has spaces)`)
  const query = words.join(' ')
  if (query.trim() === '') throw new UsageError(`${command}: the query is empty`)
  return query
}

/** The selectors `search` and `synthesize` share. */
function selectors(options: CommandOptions<'synthesize'>) {
  const selection = selectionOf(options.server, options.source)
  return { selection, topK: options['top-k'] }
}

/** `search QUERY …`: one query across the selected servers, merged into one ranked list. */
export async function searchCommand(
  ctx: CliContext,
  words: string[],
  options: CommandOptions<'search'>,
): Promise<ExitCode> {
  const query = queryOf('search', words)
  const { selection, topK } = selectors(options)
  const phrases = options.phrase ?? []
  if (phrases.length > MAX_EXTRA_PHRASES) {
    throw new UsageError(`search takes at most ${MAX_EXTRA_PHRASES} --phrase besides the query`)
  }
  return withCore(ctx, { demoKeys: true }, async (core) => {
    await connectServers(core, selection && Object.keys(selection))
    const searchId = randomUUID()
    const stop = core.events.on('search:progress', (event) => {
      if (event.searchId === searchId) ctx.out.progress(progressLine(event.result))
    })
    const result = await core.services.search.run({
      searchId,
      query,
      ...(phrases.length > 0 ? { phrases } : {}),
      ...(topK ? { topK } : {}),
      ...(options.fusion ? { fusion: options.fusion } : {}),
      ...(selection ? { selection } : {}),
      ...(ctx.global.timeoutMs ? { timeoutMs: ctx.global.timeoutMs } : {}),
    })
    stop()
    const servers = result.servers.map((s) => ({
      server: s.server,
      ok: s.ok,
      error: cliError(core, s.error),
      latencyMs: s.latencyMs,
      count: s.count,
      violations: s.violations.map((v) => ({ rule: v.rule, path: v.path, message: v.message })),
      sourceErrors: s.sourceErrors.map(({ sourceId, error }) => ({
        sourceId,
        error: cliError(core, error),
      })),
    }))
    for (const s of servers) {
      for (const { sourceId, error } of s.sourceErrors) {
        ctx.out.warn(`${s.server} source ${sourceId}: ${error?.code}: ${error?.message}`)
      }
    }
    const hits = result.hits.map((hit) => ({
      rank: hit.rank,
      server: hit.server,
      sourceId: hit.sourceId ?? null,
      id: hit.id,
      title: hit.title,
      snippet: hit.snippet,
      text: hit.text ?? null,
      score: hit.score ?? null,
      uri: hit.uri ?? null,
      fileName: hit.fileName ?? null,
      fileType: hit.fileType ?? null,
      flags: hit.flags,
      // Every copy merged into this hit, so a script can tell which were flagged.
      foundIn: hit.foundIn.map((place) => ({
        server: place.server,
        sourceId: place.sourceId ?? null,
        hitId: place.hitId,
        rank: place.rank,
        score: place.score ?? null,
        suspicious: place.suspicious === true,
      })),
    }))
    if (ctx.out.json) {
      ctx.out.result({
        query: result.query,
        phrases: result.phrases,
        user: result.user,
        elapsedMs: result.elapsedMs,
        servers,
        hits,
      })
    } else {
      ctx.out.text(
        [
          table(hits, [
            { header: '#', cell: (h) => h.rank, align: 'right' },
            { header: 'SERVER', cell: (h) => h.server },
            { header: 'SOURCE', cell: (h) => h.sourceId },
            { header: 'SCORE', cell: (h) => h.score?.toFixed(3), align: 'right' },
            { header: 'TITLE', cell: (h) => h.title, max: 40 },
            { header: 'FLAGS', cell: (h) => h.flags.join(',') },
            { header: 'URI', cell: (h) => h.uri, max: 60 },
          ]),
          `${hits.length} hit(s) for ${JSON.stringify(result.query)} as ${result.user.userId} in ${ms(result.elapsedMs)}`,
          ...servers
            .filter((s) => !s.ok)
            .map((s) => `${s.server}: ${s.error?.code}: ${s.error?.message}`),
          ...servers.flatMap((s) => violationLines(s.server, s.violations)),
        ].join('\n'),
      )
    }
    if (result.servers.length === 0) warnNothingSelected(ctx)
    // A source refused inside an otherwise good reply is a partial result: exit 1, as documented.
    return exitOf(result.servers.map((s) => ({ ...s, ok: s.ok && s.sourceErrors.length === 0 })))
  })
}

/** Violations shown in text before pointing to `--json` for the rest. */
const SHOWN_VIOLATIONS = 5

/** A server's contract violations as `--json` has them: a count, then one line each. */
function violationLines(
  server: string,
  violations: { rule: string; path: string; message: string }[],
): string[] {
  if (violations.length === 0) return []
  const more = violations.length - SHOWN_VIOLATIONS
  return [
    `${server}: ${violations.length} contract violation(s) in its reply:`,
    ...violations
      .slice(0, SHOWN_VIOLATIONS)
      .map((v) => `  ${v.rule} at ${v.path || '(the reply)'}: ${v.message}`),
    ...(more > 0 ? [`  … and ${more} more (--json lists them all)`] : []),
  ]
}

function warnNothingSelected(ctx: CliContext): void {
  ctx.out.warn(
    'no server to ask: none is visible to the acting user with a source selected; name one with --server',
  )
}

function progressLine(result: ServerSearchResult): string {
  return result.ok
    ? `${result.server}: ${result.count} hit(s) in ${ms(result.latencyMs)}`
    : `${result.server}: ${result.error?.code ?? 'failed'} after ${ms(result.latencyMs)}`
}

/** `synthesize QUERY …`: one answer per selected server, side by side. */
export async function synthesizeCommand(
  ctx: CliContext,
  words: string[],
  options: CommandOptions<'synthesize'>,
): Promise<ExitCode> {
  const query = queryOf('synthesize', words)
  const { selection, topK } = selectors(options)
  return withCore(ctx, { demoKeys: true }, async (core) => {
    await connectServers(core, selection && Object.keys(selection))
    const result = await core.services.synthesis.run({
      query,
      ...(topK ? { topK } : {}),
      ...(selection ? { selection } : {}),
      ...(ctx.global.timeoutMs ? { timeoutMs: ctx.global.timeoutMs } : {}),
    })
    const answers = result.answers.map((a) => ({
      server: a.server,
      ok: a.ok,
      error: cliError(core, a.error),
      mode: a.answer?.mode ?? null,
      answer: a.answer?.text ?? null,
      citations: (a.answer?.citations ?? []).map((c) => ({
        n: c.n,
        server: c.server,
        sourceId: c.sourceId ?? null,
        hitId: c.hitId ?? null,
        title: c.title ?? null,
        uri: c.uri ?? null,
      })),
      silence: a.answer?.silence?.reason ?? null,
      flags: a.answer?.flags ?? [],
      latencyMs: a.latencyMs,
    }))
    if (ctx.out.json) ctx.out.result({ answers })
    else {
      const blocks = answers.map((a) => {
        const flags = a.flags.length ? `, ${a.flags.join(', ')}` : ''
        const head = `== ${a.server} (${a.ok ? `${a.mode}, ${ms(a.latencyMs)}${flags}` : 'failed'})`
        if (!a.ok) return `${head}\n${a.error?.code}: ${a.error?.message}`
        if (a.silence !== null) return `${head}\n(no answer: ${a.silence})`
        const cites = a.citations.map(
          (c) => `  [${c.n}] ${c.title ?? c.hitId ?? '-'} ${c.uri ?? ''}`,
        )
        return [head, a.answer ?? '', ...cites].join('\n')
      })
      ctx.out.text(blocks.join('\n\n'))
    }
    if (result.answers.length === 0) warnNothingSelected(ctx)
    return exitOf(result.answers)
  })
}
