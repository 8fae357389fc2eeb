import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { AccessCheck, LinkVerdict } from '#shared/model/rag'
import { createUiStore } from '../../state/store'
import { CheckAllView } from './CheckAllView'
import { takeAccessHandoff } from './handoff'
import { accessKeys, accessQueries, type BatchSpec } from './queries'

const check = (verdict: LinkVerdict, url: string): AccessCheck => ({
  user: { userId: 'ana', sessionTags: [], groups: [] },
  url,
  verdict,
  explanation: `it is ${verdict}`,
  checkedAt: 0,
  cached: false,
})

describe('handoffs to the Access panel', () => {
  it('takes a single target once, and opens Access for it', () => {
    const store = createUiStore()
    const queryClient = new QueryClient()
    store.getState().accessRequested({ hit: { server: 'kb', id: 'doc#0' } }, 'PTO policy')
    expect(store.getState().panel).toBe('access')
    const taken = takeAccessHandoff(store, queryClient, 1000)
    expect(taken).toEqual({
      single: { target: { hit: { server: 'kb', id: 'doc#0' } }, label: 'PTO policy' },
    })
    expect(store.getState().accessHandoff).toBeNull()
    expect(takeAccessHandoff(store, queryClient, 1001)).toBeNull()
  })

  it('adds a batch of citations to the session, newest first, and clears the handoff', () => {
    const store = createUiStore()
    const queryClient = new QueryClient()
    const targets = [{ url: 'https://d/a' }, { url: 'https://d/b' }]
    store.getState().checkAllRequested(targets, 'first search')
    const first = takeAccessHandoff(store, queryClient, 1000)?.batch
    store.getState().checkAllRequested([{ url: 'https://d/c' }], 'second search')
    const second = takeAccessHandoff(store, queryClient, 2000)?.batch
    expect(store.getState().checkAllHandoff).toBeNull()
    expect(first).toMatchObject({ label: 'first search', targets, startedAt: 1000 })
    expect(second?.batchId).not.toBe(first?.batchId)
    expect(queryClient.getQueryData(accessKeys.batches())).toEqual([second, first])
  })
})

describe('the batch view', () => {
  it('shows the count of each verdict class of a finished batch', () => {
    const queryClient = new QueryClient()
    const batch: BatchSpec = {
      batchId: 'b1',
      label: 'Citations of "pto"',
      targets: [{ url: 'https://d/a' }, { url: 'https://d/b' }, { url: 'https://d/c' }],
      startedAt: 0,
    }
    queryClient.setQueryData(accessQueries.batch(batch).queryKey, {
      batchId: 'b1',
      checks: [
        check('ok', 'https://d/a'),
        check('expired', 'https://d/b'),
        check('ok', 'https://d/c'),
      ],
      counts: { ok: 2, expired: 1 },
    })
    const html = renderToStaticMarkup(
      createElement(
        QueryClientProvider,
        { client: queryClient },
        createElement(CheckAllView, { batch, onShow: () => undefined, onRecheck: () => undefined }),
      ),
    )
    const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
    expect(text).toContain('Citations of &quot;pto&quot; 3 citations')
    expect(text).toContain('opens 2')
    expect(text).toContain('link expired 1')
    expect(text).toContain('3 verdicts')
    expect(html).toContain('aria-rowcount="4"')
  })
})
