import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Built layout: out/main/<entry>.js, out/preload/index.cjs, out/renderer/index.html. */
export const PRELOAD_FILE = '../preload/index.cjs'
export const RENDERER_DIR = '../renderer'

const here = (): string => dirname(fileURLToPath(import.meta.url))

export const preloadPath = (): string => join(here(), PRELOAD_FILE)
export const rendererDir = (): string => join(here(), RENDERER_DIR)
