import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startCore, type LiveCore } from './support/core/live'
import { packageFile } from './support/process/package-file'

/**
 * Doctor never changes a server's data: it calls only tools known to read (its family's read
 * tools, tools annotated `readOnlyHint: true`, the tool the admin mapped); any other trial call
 * is offered, not made. Proven against servers that keep what they are told to write: a to-do
 * fixture that logs every write, and two servers from the npm registry.
 */

const TODO = fileURLToPath(new URL('./fixtures/services/todo-server.mjs', import.meta.url))
const MEMORY = packageFile('@modelcontextprotocol/server-memory', 'dist/index.js')
const TASK_MANAGER = packageFile('@kazuph/mcp-taskmanager', 'dist/index.js')

let dir: string
let live: LiveCore | undefined

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rc-doctor-ro-'))
})

afterEach(async () => {
  await live?.close()
  live = undefined
  rmSync(dir, { recursive: true, force: true })
})

afterAll(() => undefined)

const stdio = (script: string, env: Record<string, string>) => ({
  transport: 'stdio',
  command: process.execPath,
  args: [script],
  env,
})

/** The tools Doctor called on a server, from the audit log (every probe leaves a line). */
async function toolsCalled(server: string): Promise<string[]> {
  await live!.core.services.idle()
  return live!
    .auditLines()
    .filter((line) => line.operation === 'doctor' && line.server === server)
    .map((line) => String(line.tool))
    .filter((tool) => !tool.includes('/') && tool !== 'ping' && !tool.startsWith('doctor'))
}

const read = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '')

describe('Doctor on servers that write', () => {
  it('never calls a to-do server’s create_task; tries the tool annotated read-only instead', async () => {
    const log = join(dir, 'todo.log')
    live = await startCore({ todo: stdio(TODO, { TODO_LOG: log }) })
    const [report] = (await live.core.services.doctor.run({ servers: ['todo'] })).servers
    expect(read(log)).toBe('')
    expect(await toolsCalled('todo')).toEqual(['list_tasks'])
    expect(report!.checks.find((c) => c.id === 'generic.search-tool')).toMatchObject({
      status: 'warn',
      evidence: {
        found: expect.stringMatching(/no mapping yet; list_tasks looks like search/),
        reply: { suggested: { search: { tool: 'list_tasks', arguments: { query: '{query}' } } } },
      },
    })
  })

  it('offers the trial call instead of making it when no tool says it only reads', async () => {
    const log = join(dir, 'todo.log')
    live = await startCore({ todo: stdio(TODO, { TODO_LOG: log, TODO_NO_HINTS: '1' }) })
    const [report] = (await live.core.services.doctor.run({ servers: ['todo'] })).servers
    expect(read(log)).toBe('')
    expect(await toolsCalled('todo')).toEqual([])
    const check = report!.checks.find((c) => c.id === 'generic.search-tool')!
    expect(check).toMatchObject({
      status: 'warn',
      evidence: {
        found: expect.stringMatching(/list_tasks looks like search.*not called/),
        offered: {
          tool: 'list_tasks',
          arguments: { query: 'policy' },
          command: `rag-console call --server todo --tool list_tasks --args '{"query":"policy"}'`,
        },
      },
    })
    // The write tools are not even offered.
    expect(JSON.stringify(check.evidence.offered)).not.toMatch(/create_task|delete_task/)
  })

  it('writes nothing to @modelcontextprotocol/server-memory and tries its read-only search_nodes', async () => {
    const file = join(dir, 'memory.jsonl')
    const graph = `${JSON.stringify({ type: 'entity', name: 'Leave policy', entityType: 'policy', observations: ['25 days'] })}\n`
    writeFileSync(file, graph)
    live = await startCore({ memory: stdio(MEMORY, { MEMORY_FILE_PATH: file }) })
    await live.core.services.doctor.run({ servers: ['memory'] })
    expect(read(file)).toBe(graph)
    expect(await toolsCalled('memory')).toEqual(['search_nodes'])
  })

  it('calls no tool of @kazuph/mcp-taskmanager, none of which says it only reads', async () => {
    const file = join(dir, 'tasks.json')
    live = await startCore({ tasks: stdio(TASK_MANAGER, { TASK_MANAGER_FILE_PATH: file }) })
    const [report] = (await live.core.services.doctor.run({ servers: ['tasks'] })).servers
    expect(report!.error).toBeUndefined()
    expect(await toolsCalled('tasks')).toEqual([])
    expect(existsSync(file)).toBe(false)
  })
})
