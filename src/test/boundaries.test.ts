import { ESLint } from 'eslint'
import { resolve } from 'node:path'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
// The files linted here exist only as text, in no tsconfig project: the import rules need no types.
const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked })

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, file) })
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message)
}

// Which folder may import which: layers.test.ts (dependency-cruiser).
describe('import boundaries', () => {
  it('keeps node and electron out of src/shared', async () => {
    expect(await restrictedImports('src/shared/x.ts', "import 'node:fs'\n")).not.toHaveLength(0)
    expect(await restrictedImports('src/shared/x.ts', "import 'fs'\n")).not.toHaveLength(0)
    expect(await restrictedImports('src/shared/x.ts', "import 'electron'\n")).not.toHaveLength(0)
    expect(await restrictedImports('src/shared/x.ts', "import 'react'\n")).not.toHaveLength(0)
  })

  it('keeps electron out of src/main/core', async () => {
    const messages = await restrictedImports(
      'src/main/core/x.ts',
      "import { app } from 'electron'\nvoid app\n",
    )
    expect(messages[0]).toMatch(/plain Node/)
    expect(await restrictedImports('src/main/core/x.ts', "import 'node:fs'\n")).toEqual([])
  })

  it("keeps electron out of the desktop app's pure modules and every unit test", async () => {
    for (const file of [
      'src/main/app-menu.ts',
      'src/main/window-state.ts',
      'src/main/launch-args.ts',
      'src/main/x.test.ts',
    ]) {
      expect(
        await restrictedImports(file, "import { app } from 'electron'\nvoid app\n"),
      ).not.toEqual([])
    }
    expect(await restrictedImports('src/main/index.ts', "import 'electron'\n")).toEqual([])
  })

  it('keeps electron and node out of the renderer', async () => {
    expect(
      await restrictedImports('src/renderer/src/x.ts', "import 'electron'\n"),
    ).not.toHaveLength(0)
    expect(
      await restrictedImports('src/renderer/src/x.ts', "import 'node:path'\n"),
    ).not.toHaveLength(0)
    expect(
      await restrictedImports('src/renderer/src/x.ts', "import '../../shared/errors'\n"),
    ).toEqual([])
  })

  it('keeps electron and react out of the demo servers', async () => {
    expect(await restrictedImports('src/demo/x.ts', "import 'react'\n")).not.toHaveLength(0)
    expect(await restrictedImports('src/demo/x.ts', "import 'node:http'\n")).toEqual([])
  })
})
