import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** A file of an installed npm package (a third-party server's entry), by package name. */
export function packageFile(name: string, file: string): string {
  return join(dirname(createRequire(import.meta.url).resolve(`${name}/package.json`)), file)
}
