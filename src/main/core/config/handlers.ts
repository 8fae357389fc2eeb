import { existsSync } from 'node:fs'
import { maskPlaintextSecrets } from '#shared/config/plaintext-secrets'
import type { InvokeResult, ParsedRequest } from '#shared/ipc/contract'
import type { RegistryResults } from '#shared/ipc/registry'
import { importCandidatePaths } from './import'
import type { RegistryStore, SecretStatus } from './store'

type RegistryHandlers = {
  [C in keyof RegistryResults]: (
    request: ParsedRequest<C>,
  ) => Promise<InvokeResult<C>> | InvokeResult<C>
}

/** The `registry:*` and `config:*` channels, on top of a {@link RegistryStore}. */
export function registryHandlers(
  store: RegistryStore,
  env: NodeJS.ProcessEnv = process.env,
  secrets?: SecretStatus,
): RegistryHandlers {
  return {
    'registry:get': () => {
      const view = store.view()
      return { ...view, servers: view.servers.map((server) => maskPlaintextSecrets(server)) }
    },
    'registry:reload': () => store.reloadNow(),
    'registry:history': () => store.history(),
    'registry:set-enabled': ({ serverId, enabled }) => store.setEnabled(serverId, enabled),
    'registry:enabled-draft': ({ serverId, enabled }) => store.enabledDraft(serverId, enabled),
    'config:read': () => store.readRaw(),
    'config:validate': ({ text }) => store.validateDraft(text, secrets),
    'config:save': ({ text, baseHash, force }) =>
      store.save({ text, baseHash, ...(force === undefined ? {} : { force }) }),
    'config:import-candidates': () =>
      importCandidatePaths(env).map((candidate) => ({
        ...candidate,
        exists: existsSync(candidate.path),
      })),
    'config:import-preview': (source) => store.previewImport(source),
    'config:import-apply': ({ source, servers, baseHash, force, keepPlaintext }) =>
      store.applyImport({
        source,
        baseHash,
        ...(servers === undefined ? {} : { servers }),
        ...(force === undefined ? {} : { force }),
        ...(keepPlaintext === undefined ? {} : { keepPlaintext }),
      }),
  }
}
