/// <reference types="vite/client" />
import type { RagConsoleApi } from '#shared/ipc/wire'

declare global {
  interface Window {
    /** The only way to the main process (Electron preload or the browser host's bridge). */
    readonly ragConsole: RagConsoleApi
  }
}

export {}
