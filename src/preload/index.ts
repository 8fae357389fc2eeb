import { contextBridge, ipcRenderer } from 'electron'
import {
  IPC_EVENT_CHANNEL,
  IPC_PREFIX,
  IPC_SUBSCRIBE_CHANNEL,
  type IpcEvent,
  type RagConsoleApi,
} from '#shared/ipc/wire'
import { PageListeners } from '#shared/ipc/listeners'
import { isExternalHttpUrl } from '#shared/csp'

const listeners = new PageListeners((events) => ipcRenderer.send(IPC_SUBSCRIBE_CHANNEL, events))
// A reloaded page starts with no opt-in events, whatever the page before it had asked for.
ipcRenderer.send(IPC_SUBSCRIBE_CHANNEL, [])

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, message: IpcEvent) => {
  listeners.emit(message.name, message.payload)
})

const api: RagConsoleApi = {
  invoke: (channel, ...args) =>
    ipcRenderer.invoke(`${IPC_PREFIX}invoke`, `${IPC_PREFIX}${channel}`, args[0]),
  on: (event, listener, scope) => listeners.on(event, listener, scope),
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
