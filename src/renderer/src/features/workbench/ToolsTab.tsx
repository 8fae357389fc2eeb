import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { WorkbenchCall } from '#shared/ipc/workbench'
import { useWorkbenchTool, useWorkbenchToolSelected } from '../../state/store'
import { Banner, cx, EmptyState, Spinner } from '../../ui'
import { serverQueries } from '../servers/queries'
import { workbenchQueries } from './queries'
import { Requests } from './Requests'
import { ToolCall } from './ToolCall'

/** rag-tools-v1 servers get the acting user as `username` from the console. */
const USERNAME = ['username'] as const
const NONE = [] as const

/** The tools of a server, one of them open as a form, with its history and saved requests. */
export function ToolsTab({ server }: { server: string }) {
  const tools = useQuery(workbenchQueries.tools(server))
  const summary = useQuery(serverQueries.list()).data?.find((s) => s.id === server)
  const chosen = useWorkbenchTool()
  const choose = useWorkbenchToolSelected()
  // A request loaded from the history or the saved list; the nonce remounts the form with it.
  const [loaded, setLoaded] = useState<{
    call: WorkbenchCall
    run: boolean
    nonce: number
  } | null>(null)

  if (tools.isPending) return <Spinner label={`Listing the tools of ${server}…`} />
  if (tools.isError) {
    return (
      <Banner tone="bad" title={`Could not list the tools of ${server}`}>
        {tools.error.message}
      </Banner>
    )
  }
  const list = tools.data.tools
  if (list.length === 0) {
    return <EmptyState icon="workbench" title={`${server} lists no tools`} />
  }
  const tool = list.find((t) => t.name === chosen) ?? list[0]!
  const load = (request: WorkbenchCall, run: boolean): void => {
    choose(request.tool)
    setLoaded((old) => ({ call: request, run, nonce: (old?.nonce ?? 0) + 1 }))
  }
  const initial = loaded?.call.tool === tool.name ? loaded.call.arguments : undefined
  return (
    <div className="wb-tools">
      <nav className="wb-tools__list" aria-label={`Tools of ${server}`}>
        {list.map((t) => (
          <button
            key={t.name}
            type="button"
            className={cx('wb-tools__item', t.name === tool.name && 'is-selected')}
            aria-current={t.name === tool.name ? 'true' : undefined}
            onClick={() => choose(t.name)}
          >
            {t.name}
          </button>
        ))}
      </nav>
      <ToolCall
        key={`${server}/${tool.name}/${loaded?.nonce ?? 0}`}
        server={server}
        tool={tool}
        {...(initial ? { initial, runAtOnce: loaded?.run ?? false } : {})}
        filled={(summary?.dialect.id ?? tools.data.dialect) === 'rag-tools-v1' ? USERNAME : NONE}
      />
      <Requests server={server} onLoad={load} />
    </div>
  )
}
