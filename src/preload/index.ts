import { contextBridge, ipcRenderer } from 'electron'
import {
  IPC_EVENT_CHANNEL,
  IPC_PREFIX,
  type IpcEvent,
  type RagConsoleApi,
} from '../shared/ipc/wire'
import { isEventName, type EventMap, type EventName } from '../shared/ipc/events'
import { isExternalHttpUrl } from '../shared/csp'

type Listener = (payload: unknown) => void
const listeners = new Map<EventName, Set<Listener>>()

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, message: IpcEvent) => {
  for (const listener of listeners.get(message.name) ?? []) listener(message.payload)
})

const api: RagConsoleApi = {
  invoke: (channel, ...args) =>
    ipcRenderer.invoke(`${IPC_PREFIX}invoke`, `${IPC_PREFIX}${channel}`, args[0]),
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void) {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`)
    let set = listeners.get(event)
    if (!set) listeners.set(event, (set = new Set()))
    set.add(listener as Listener)
    return () => set.delete(listener as Listener)
  },
  async openExternal(url) {
    // Only during a user click, and only for http(s).
    if (!navigator.userActivation.isActive || !isExternalHttpUrl(url)) return false
    const response = await ipcRenderer.invoke(
      `${IPC_PREFIX}invoke`,
      `${IPC_PREFIX}app:open-external`,
      { url },
    )
    return response.ok === true && response.value.opened === true
  },
}

// The renderer gets exactly this one object; never ipcRenderer itself.
contextBridge.exposeInMainWorld('ragConsole', api)
