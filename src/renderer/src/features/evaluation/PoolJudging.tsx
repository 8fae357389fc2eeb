import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { EvalPool, EvalRunSummary, GoldenSetSummary, Grade } from '#shared/model/evaluation'
import { call, openExternal } from '../../api'
import { plural } from '../../lib/format'
import {
  useEvaluationPoolRuns,
  useEvaluationPoolRunsSelected,
  useEvaluationRun,
  useNoticePosted,
} from '../../state/store'
import { Banner, Button, EmptyState, Select, Spinner, Table } from '../../ui'
import { GradeControl } from './GradeControl'
import { formatShare, listLabel } from './metric-view'
import {
  coverageRows,
  foundText,
  judgingPress,
  poolGrades,
  poolToJudge,
  type PoolItem,
} from './pool-view'
import { evalKeys, evalQueries } from './queries'
import { runTime } from './RunHistory'
import { usePoolDocument } from './use-pool-document'

const DEPTHS = [1, 3, 5, 10, 20, 50, 100]

/**
 * TREC's depth-k pooling: the union of every provider's top k over the chosen runs that has no
 * judgment yet, judged one document at a time from the keyboard (0–3 grade and go on, ← → move),
 * with the document's words and link, and each list's judged@k rising as it goes.
 */
export function PoolJudging({
  set,
  runs,
}: {
  set: GoldenSetSummary
  runs: readonly EvalRunSummary[]
}): React.JSX.Element {
  const finished = runs.filter((run) => run.status !== 'running' && run.done > 0)
  const shown = useEvaluationRun()
  const chosen = useEvaluationPoolRuns()
  const choose = useEvaluationPoolRunsSelected()
  const fallback = finished.find((run) => run.id === shown) ?? finished[0]
  const runIds = (chosen ?? (fallback ? [fallback.id] : [])).filter((id) =>
    finished.some((run) => run.id === id),
  )
  const pooled = finished.filter((run) => runIds.includes(run.id))
  const maxDepth = Math.min(100, ...pooled.map((run) => run.k))
  const [wanted, setWanted] = useState<number | null>(null)
  const depth = Math.min(wanted ?? maxDepth, maxDepth)
  const pool = useQuery({
    ...evalQueries.pool(set.id, runIds, depth),
    enabled: runIds.length > 0,
  })

  if (finished.length === 0) {
    return (
      <EmptyState icon="evaluation" title="Nothing to pool yet">
        The pool is made of what runs returned: run the set first (Runs), then judge here what no
        one has judged yet.
      </EmptyState>
    )
  }
  const flip = (id: string): void => {
    const next = runIds.includes(id) ? runIds.filter((r) => r !== id) : [...runIds, id]
    choose(next)
  }
  return (
    <div className="eval-pool">
      <form className="eval-launcher" aria-label="Pool" onSubmit={(e) => e.preventDefault()}>
        <fieldset className="eval-launcher__group">
          <legend>Runs pooled</legend>
          {finished.slice(0, 12).map((run) => (
            <label
              key={run.id}
              className="eval-check"
              title={`${run.servers.join(', ')} as ${run.profiles.join(', ')} · k=${run.k}`}
            >
              <input
                type="checkbox"
                checked={runIds.includes(run.id)}
                onChange={() => flip(run.id)}
              />
              {runTime(run)}
            </label>
          ))}
        </fieldset>
        <Select
          label="Depth"
          inline
          value={String(depth)}
          options={[...new Set([...DEPTHS.filter((d) => d < maxDepth), maxDepth])].map((d) => ({
            value: String(d),
            label: `top ${d}`,
          }))}
          onChange={(value) => setWanted(Number(value))}
        />
      </form>
      {runIds.length === 0 ? (
        <p className="muted">Choose the runs whose results make up the pool.</p>
      ) : pool.isPending ? (
        <Spinner label="Pooling the runs…" />
      ) : pool.isError ? (
        <Banner tone="bad" title="Cannot pool these runs">
          {pool.error.message}
        </Banner>
      ) : (
        <PoolSession
          key={`${runIds.join(',')}:${depth}`}
          setId={set.id}
          pool={pool.data}
          runs={pooled}
        />
      )}
    </div>
  )
}

/** One judging session over a pool: the documents to judge as they were when it began. */
function PoolSession({
  setId,
  pool,
  runs,
}: {
  setId: string
  pool: EvalPool
  runs: readonly EvalRunSummary[]
}): React.JSX.Element {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [items] = useState(() => poolToJudge(pool))
  const [index, setIndex] = useState(0)
  // Grades given here, shown at once (the pool is read again behind them).
  const [given, setGiven] = useState<ReadonlyMap<string, Grade | null>>(new Map())
  const grades = useMemo(() => {
    const now = new Map(poolGrades(pool))
    for (const [key, grade] of given) now.set(key, grade)
    return now
  }, [pool, given])
  const judged = items.filter((item) => (grades.get(item.key) ?? null) !== null).length
  const item = items[Math.min(index, items.length - 1)]

  const judge = async (target: PoolItem, grade: Grade | null): Promise<void> => {
    setGiven((before) => new Map(before).set(target.key, grade))
    try {
      await call('eval:judge', {
        setId,
        queryId: target.queryId,
        query: target.query,
        docKey: target.doc.docKey,
        grade,
        ...(target.doc.title ? { title: target.doc.title } : {}),
        ...(target.doc.uri ? { uri: target.doc.uri } : {}),
      })
    } catch (error) {
      setGiven((before) => {
        const next = new Map(before)
        next.delete(target.key)
        return next
      })
      notify({
        tone: 'bad',
        message: 'Could not save the grade.',
        detail: (error as Error).message,
      })
    }
    // Grades and coverage as the set has them now.
    void queryClient.invalidateQueries({ queryKey: [...evalKeys.all, 'pool', setId] })
  }
  const move = (step: number): void =>
    setIndex((at) => Math.max(0, Math.min(items.length - 1, at + step)))

  return (
    <>
      <PoolSummary pool={pool} toJudge={items.length} judged={judged} />
      <div className="eval-pool__body">
        {items.length === 0 ? (
          <Banner tone="ok" title="Every pooled document is judged">
            {plural(pool.size, 'document')} in the top {pool.depth} of these runs, all judged. Run
            the set again to measure with them.
          </Banner>
        ) : (
          item && (
            <Judging
              item={item}
              position={Math.min(index, items.length - 1)}
              count={items.length}
              grade={grades.get(item.key) ?? null}
              next={items[index + 1]}
              onGrade={(grade) => {
                void judge(item, grade)
                if (grade !== null) move(1)
              }}
              onMove={move}
            />
          )
        )}
        <Coverage pool={pool} runs={runs} />
      </div>
    </>
  )
}

function PoolSummary({
  pool,
  toJudge,
  judged,
}: {
  pool: EvalPool
  toJudge: number
  judged: number
}): React.JSX.Element {
  const text = `${judged} of ${toJudge} judged in this session · ${pool.judged} of ${pool.size} pooled documents judged over ${plural(pool.queries.length, 'query', 'queries')}`
  return (
    <div className="eval-progress eval-pool__progress">
      <progress
        aria-label="Pool judged"
        aria-valuetext={text}
        max={Math.max(1, pool.size)}
        value={pool.judged}
      />
      <span role="status">{text}</span>
    </div>
  )
}

/** judged@depth of each list of each pooled run, against the set as it is now. */
function Coverage({
  pool,
  runs,
}: {
  pool: EvalPool
  runs: readonly EvalRunSummary[]
}): React.JSX.Element {
  const rows = coverageRows(pool)
  const name = (id: string): string => {
    const run = runs.find((r) => r.id === id)
    return run ? runTime(run) : id
  }
  return (
    <Table label={`Judged@${pool.depth} now`} className="eval-pool__coverage">
      <thead>
        <tr>
          <th scope="col">Judged@{pool.depth} now</th>
          {pool.runIds.map((id) => (
            <th key={id} scope="col" className="num">
              {name(id)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} aria-label={listLabel(row.list)}>
            <th scope="row" className="eval-list-name">
              {listLabel(row.list)}
            </th>
            {row.values.map((value, i) => (
              <td
                key={pool.runIds[i]}
                className={value !== null && value < 0.8 ? 'num eval-cell--thin' : 'num'}
              >
                {value === null ? '–' : formatShare(value)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  )
}

/** The document being judged: where it was found, its words and link, its grade; the keys. */
function Judging({
  item,
  position,
  count,
  grade,
  next,
  onGrade,
  onMove,
}: {
  item: PoolItem
  position: number
  count: number
  grade: Grade | null
  next: PoolItem | undefined
  onGrade: (grade: Grade | null) => void
  onMove: (step: number) => void
}): React.JSX.Element {
  const { ref, text, title, link } = usePoolDocument(item, next)
  return (
    <section
      ref={ref}
      className="eval-judge"
      tabIndex={0}
      aria-label={`Judge document ${position + 1} of ${count}`}
      aria-keyshortcuts="0 1 2 3 ArrowLeft ArrowRight Delete"
      onKeyDown={(event) => {
        const action = judgingPress(event, event.target instanceof HTMLInputElement)
        if (!action) return
        event.preventDefault()
        if (action.kind === 'grade') onGrade(action.grade)
        else if (action.kind === 'clear') onGrade(null)
        else onMove(action.step)
      }}
    >
      <div className="eval-judge__where">
        <span>
          Document {position + 1} of {count}
        </span>
        <span className="eval-judge__query">
          Query <q>{item.query}</q>
        </span>
        <span className="muted">Found by {foundText(item.doc)}</span>
      </div>
      <h3 className="eval-judge__title">{title}</h3>
      {link ? (
        <a
          className="eval-judge__link"
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(event) => {
            event.preventDefault()
            void openExternal(link)
          }}
        >
          {link}
        </a>
      ) : (
        <code className="eval-judge__link muted">{item.doc.docKey}</code>
      )}
      <DocumentText item={item} text={text} />
      <div className="eval-judge__grade">
        <GradeControl subject={title} grade={grade ?? undefined} onGrade={onGrade} />
        <span className="eval-spacer" />
        <Button disabled={position === 0} onClick={() => onMove(-1)}>
          Previous
        </Button>
        <Button icon="chevronRight" disabled={position === count - 1} onClick={() => onMove(1)}>
          Next
        </Button>
      </div>
      <JudgingKeys />
    </section>
  )
}

/** The document's words as its server gives them, or why there are none. */
function DocumentText({
  item,
  text,
}: {
  item: PoolItem
  text: ReturnType<typeof usePoolDocument>['text']
}): React.JSX.Element {
  return (
    <div className="eval-judge__text" aria-label="Document text">
      {text.isPending ? (
        <Spinner label={`Asking ${item.doc.found[0]?.server ?? 'the server'} for its text…`} />
      ) : text.isError ? (
        <p className="muted">No text: {text.error.message}</p>
      ) : text.data.unavailable ? (
        <p className="muted">No text: {text.data.unavailable}</p>
      ) : (
        <p>{text.data.text}</p>
      )}
    </div>
  )
}

/** The judging keys, said under the document. */
function JudgingKeys(): React.JSX.Element {
  return (
    <p className="eval-judge__keys muted">
      Keys: <kbd className="ui-kbd">0</kbd>–<kbd className="ui-kbd">3</kbd> grade and go on ·{' '}
      <kbd className="ui-kbd">←</kbd> <kbd className="ui-kbd">→</kbd> previous, next ·{' '}
      <kbd className="ui-kbd">Delete</kbd> removes the grade
    </p>
  )
}
