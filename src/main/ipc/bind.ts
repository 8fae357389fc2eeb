import type { BrowserWindow, IpcMain, IpcMainEvent, IpcMainInvokeEvent } from 'electron'
import { IPC_EVENT_CHANNEL, IPC_PREFIX, type IpcEvent } from '#shared/ipc/wire'
import { pageWants, parseSubscription, type Subscription } from '#shared/ipc/events'
import { IPC_SUBSCRIBE_CHANNEL } from '#shared/ipc/wire'
import type { EventBus } from '#core/events'
import type { SecretRedactor } from '#core/secrets/redactor'
import { dispatch } from '#core/api/dispatch'
import type { Handlers } from '#core/api/handlers'

/**
 * Binds the contract to Electron: one `ipcMain.handle` for the `rag:` prefix, accepting only
 * requests from the main frame of our own window showing our own page, and forwarding every
 * core event to that window (an opt-in event only while the page subscribes to it).
 */
export function bindIpc(options: {
  ipcMain: IpcMain
  window: BrowserWindow
  handlers: Handlers
  events: EventBus
  redactor: Pick<SecretRedactor, 'redactValues'>
  isAppUrl: (url: string) => boolean
}): () => void {
  const { ipcMain, window, handlers, events, redactor, isAppUrl } = options
  const channel = `${IPC_PREFIX}invoke`

  const trusted = (event: IpcMainEvent | IpcMainInvokeEvent): boolean => {
    const frame = event.senderFrame
    return (
      event.sender === window.webContents &&
      frame !== null &&
      frame === window.webContents.mainFrame &&
      isAppUrl(frame.url)
    )
  }

  ipcMain.handle(channel, async (event, name: unknown, request: unknown) => {
    if (!trusted(event)) {
      return { ok: false, error: { code: 'invalid_argument', message: 'untrusted sender' } }
    }
    if (typeof name !== 'string' || !name.startsWith(IPC_PREFIX)) {
      return { ok: false, error: { code: 'invalid_argument', message: 'bad channel prefix' } }
    }
    return dispatch(handlers, name.slice(IPC_PREFIX.length), request)
  })

  let subscribed: Subscription = new Map()
  // A malformed subscription (only a hostile page sends one) subscribes to nothing.
  const onSubscribe = (event: IpcMainEvent, wanted: unknown): void => {
    if (trusted(event)) subscribed = parseSubscription(wanted) ?? new Map()
  }
  ipcMain.on(IPC_SUBSCRIBE_CHANNEL, onSubscribe)

  const unsubscribe = events.onAny((name, payload) => {
    if (window.isDestroyed() || !pageWants(subscribed, name, payload)) return
    const message = { name, payload: redactor.redactValues(payload) } as IpcEvent
    window.webContents.send(IPC_EVENT_CHANNEL, message)
  })

  return () => {
    unsubscribe()
    ipcMain.removeListener(IPC_SUBSCRIBE_CHANNEL, onSubscribe)
    ipcMain.removeHandler(channel)
  }
}
