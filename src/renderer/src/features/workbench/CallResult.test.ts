import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { WorkbenchCallResult } from '#shared/ipc/workbench'
import { CallResult } from './CallResult'

const render = (result: WorkbenchCallResult['result']): string =>
  renderToStaticMarkup(
    createElement(CallResult, {
      result: { tool: 'list_tasks', isError: false, latencyMs: 3, result } as WorkbenchCallResult,
    }),
  )

describe('CallResult', () => {
  it('shows a result carried in structured content alone, saying where it is', () => {
    const html = render({ content: [], structuredContent: { tasks: [{ title: 'Buy milk' }] } })
    expect(html).toContain('No content blocks: list_tasks answered with structured content only')
    expect(html).toContain('Buy milk')
    expect(html).not.toContain('No content blocks.')
  })

  it('lists content blocks as before when there are some', () => {
    const html = render({ content: [{ type: 'text', text: 'two tasks' }] })
    expect(html).toContain('two tasks')
    expect(html).not.toContain('structured content only')
  })
})
