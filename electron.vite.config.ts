import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        // One bundle per Node entry: the Electron main process, the browser host,
        // the headless CLI and the demo servers all share src/main/core.
        input: {
          index: resolve('src/main/index.ts'),
          host: resolve('src/main/host/entry.ts'),
          cli: resolve('src/main/cli/entry.ts'),
          demo: resolve('src/demo/main.ts'),
          bench: resolve('bench/main.ts'),
        },
        // Flat: shared chunks sit beside the entries, so paths relative to import.meta.url
        // (the preload, the renderer) are the same from every bundle.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      rolldownOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // Sandboxed preloads must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    plugins: [react()],
    build: {
      rolldownOptions: {
        input: {
          index: resolve('src/renderer/index.html'),
          // The browser host's stand-in for the preload; never loaded inside Electron.
          'web-bridge': resolve('src/preload/web-bridge.ts'),
        },
        output: {
          entryFileNames: (chunk) =>
            chunk.name === 'web-bridge' ? 'web-bridge.js' : 'assets/[name]-[hash].js',
        },
      },
    },
  },
})
