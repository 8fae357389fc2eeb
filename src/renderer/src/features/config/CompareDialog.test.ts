import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { CompareDialog, type Comparison } from './CompareDialog'

const conflict: Comparison = {
  kind: 'conflict',
  path: '/cfg/rag-mcp.json',
  disk: '{}',
  diskHash: 'h',
  diskExists: true,
  mine: '{"a":{}}',
}

const textOf = (comparison: Comparison): string =>
  renderToStaticMarkup(
    createElement(CompareDialog, {
      comparison,
      onKeepMine: async () => undefined,
      onTakeDisk: () => undefined,
      onClose: () => undefined,
    }),
  )
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')

describe('compare dialog', () => {
  it('names the backup a raced save kept, so that version is not lost unnoticed', () => {
    const text = textOf({ ...conflict, keptAt: '/cfg/rag-mcp.json.bak.2' })
    expect(text).toContain('nothing was saved')
    expect(text).toContain('/cfg/rag-mcp.json.bak.2')
  })

  it('mentions no backup when the save kept none', () => {
    expect(textOf(conflict)).not.toMatch(/\.bak/)
  })
})
