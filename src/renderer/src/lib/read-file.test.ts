import { describe, expect, it } from 'vitest'
import { readChosenFile } from './read-file'

describe('readChosenFile', () => {
  it('gives the name and text of a file', async () => {
    const file = new File(['{"a": 1}'], 'claude_desktop_config.json')
    expect(await readChosenFile(file)).toEqual({
      name: 'claude_desktop_config.json',
      text: '{"a": 1}',
    })
  })

  it('says which file could not be read when reading fails, instead of rejecting', async () => {
    // What a browser does when the file was moved or deleted after it was chosen.
    const gone = {
      name: 'qrels.txt',
      text: () =>
        Promise.reject(new DOMException('The file could not be read.', 'NotReadableError')),
    }
    const read = await readChosenFile(gone)
    expect(read).toEqual({ error: expect.stringContaining('Could not read qrels.txt') })
    expect(read).toEqual({ error: expect.stringContaining('The file could not be read') })
  })
})
