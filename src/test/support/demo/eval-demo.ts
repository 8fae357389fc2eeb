import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { RAGBOX_KEYS, RAG_SEARCH_API_KEY } from '#demo/keys'
import { builtFile, repoRoot } from '../process/built'
import { startChild } from '../process/start-child'

/**
 * The embedded demo registry's servers, started on free ports for a test or benchmark (no test
 * runner imported here). Their citation links still point at the embedded registry's document
 * host, so the document keys match those of the shipped demo golden set; nothing needs to
 * serve that host for a search.
 */

export const EMBEDDED_DOC_HOST = 'http://127.0.0.1:47310'

/** The keys the registry reads as `${env:…}`: pass as the core's environment. */
export const EVAL_DEMO_ENV = {
  EVAL_DEMO_SEARCH_KEY: RAG_SEARCH_API_KEY,
  EVAL_DEMO_VAULT_KEY: RAGBOX_KEYS.acme,
}

export interface EvalDemo {
  /** The embedded registry's five servers (same ids and sources), on these processes. */
  registry: Record<string, Record<string, unknown>>
  stop(): Promise<void>
}

type Program = 'rag-search' | 'rag-tools-v1' | 'ragbox' | 'vtex'

/** Starts the four HTTP demo programs (the stdio one is spawned by the pool). */
export async function startEvalDemo(
  extra: Partial<Record<Program, string[]>> = {},
): Promise<EvalDemo> {
  const demo = builtFile('main/demo.js')
  const programs: Program[] = ['rag-search', 'rag-tools-v1', 'ragbox', 'vtex']
  const started = await Promise.all(
    programs.map((program) =>
      startChild(
        [demo, program, '--port', '0', '--doc-host', EMBEDDED_DOC_HOST, ...(extra[program] ?? [])],
        (lines) => lines.map((line) => /^ready (\S+)/.exec(line)?.[1]).find(Boolean),
      ),
    ),
  )
  const url = (program: Program): string => started[programs.indexOf(program)]!.ready
  const embedded = JSON.parse(
    readFileSync(join(repoRoot, 'resources', 'default-registry.json'), 'utf8'),
  ) as Record<string, Record<string, unknown>>
  const entry = (id: string, changes: Record<string, unknown>): Record<string, unknown> => {
    const { launch: _launch, cwd: _cwd, ...rest } = embedded[id]!
    return { ...rest, ...changes }
  }
  return {
    registry: {
      knowledgeSearch: entry('knowledgeSearch', {
        url: url('rag-search'),
        headers: { Authorization: 'Bearer ${env:EVAL_DEMO_SEARCH_KEY}' },
      }),
      companyDocs: entry('companyDocs', {
        command: process.execPath,
        args: [demo, 'rag-tools-v1', '--stdio', '--doc-host', EMBEDDED_DOC_HOST],
      }),
      engineeringWiki: entry('engineeringWiki', { url: url('rag-tools-v1') }),
      documentVault: entry('documentVault', {
        url: url('ragbox'),
        headers: { 'X-API-Key': '${env:EVAL_DEMO_VAULT_KEY}' },
      }),
      productCatalog: entry('productCatalog', { url: url('vtex') }),
    },
    stop: async () => {
      await Promise.all(started.map((child) => child.stop()))
    },
  }
}
