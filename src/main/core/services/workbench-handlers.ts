import type { WorkbenchResults } from '#shared/ipc/workbench'
import type { ChannelHandlers } from '#shared/ipc/contract'
import type { WorkbenchService } from './workbench-service'

/** IPC handlers of the protocol workbench. */
export function workbenchHandlers(
  workbench: WorkbenchService,
): Pick<ChannelHandlers, keyof WorkbenchResults> {
  return {
    'workbench:validate': async (call) => {
      const problems = await workbench.validate(call)
      return { valid: problems.length === 0, problems }
    },
    'workbench:call': ({ callId, timeoutMs, skipValidation, ...call }) =>
      workbench.call({
        ...call,
        ...(callId ? { callId } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
        ...(skipValidation ? { skipValidation } : {}),
      }),
    'workbench:cancel': ({ callId }) => ({ cancelled: workbench.cancel(callId) }),
    'workbench:history': (request) => ({ calls: workbench.calls(request?.server) }),
    'workbench:resources': ({ server, cursor }) => workbench.resources(server, cursor),
    'workbench:resource-templates': ({ server, cursor }) =>
      workbench.resourceTemplates(server, cursor),
    'workbench:read-resource': ({ server, uri }) => workbench.readResource(server, uri),
    'workbench:subscribe': ({ server, uri, subscribe }) =>
      workbench.subscribe(server, uri, subscribe),
    'workbench:prompts': ({ server, cursor }) => workbench.prompts(server, cursor),
    'workbench:get-prompt': ({ server, name, arguments: args }) =>
      workbench.getPrompt(server, name, args),
    'workbench:log': ({ server, afterSeq }) => ({
      server,
      entries: workbench.log(server, afterSeq),
    }),
    'workbench:log-entry': ({ server, seq }) => workbench.logEntry(server, seq),
    'workbench:log-clear': ({ server }) => ({ cleared: workbench.clearLog(server) }),
    'workbench:set-level': async ({ server, level }) => ({
      level: await workbench.setLevel(server, level),
    }),
    'workbench:try': (spec) => workbench.tryServer(spec),
    'workbench:try-close': async ({ server }) => ({ closed: await workbench.tries.close(server) }),
    'workbench:try-list': () => ({ servers: workbench.tries.list() }),
    'workbench:try-add': ({ server, id, baseHash }) => workbench.addTried(server, id, baseHash),
    'workbench:map-propose': (request) => workbench.proposeMapping(request),
    'workbench:map-draft': ({ server, mapping }) => workbench.mappingDraft(server, mapping),
    'workbench:copy': (call) => workbench.copy(call),
    'workbench:saved-list': (request) => ({ requests: workbench.saved.list(request?.server) }),
    'workbench:saved-save': (request) => workbench.saved.save(request),
    'workbench:saved-delete': ({ id }) => ({ deleted: workbench.saved.delete(id) }),
  }
}
