import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import type { Grade } from '#shared/model/evaluation'
import type { Hit } from '#shared/model/rag'
import { call } from '../../api'
import { useJudgingSet, useNoticePosted } from '../../state/store'
import { gradesFor, judgedKey, judgedQuery } from './grades'
import { evalKeys, evalQueries } from './queries'

/** Judging hits from Search into a golden set: what a hit list and the inspector need. */
export interface Judging {
  setName: string
  /** The query the judgments go to (the search that found the hits). */
  query: string
  gradeOf: (hit: Hit) => Grade | undefined
  /** Records (or, with null, removes) the grade of the hit's document for the query. */
  onGrade: (hit: Hit, grade: Grade | null) => void
}

/**
 * Judging into the set chosen in Search's toolbar, for the search that ran (`query`); null
 * while judging is off, the set is loading, or no search ran.
 */
export function useJudging(
  query: string | undefined,
  profileId: string | undefined,
): Judging | null {
  const setId = useJudgingSet()
  const set = useQuery({ ...evalQueries.set(setId ?? ''), enabled: setId !== null })
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const grades = useMemo(
    () => gradesFor(set.data, query ?? '', profileId),
    [set.data, query, profileId],
  )
  // The query judged into; none yet: `eval:judge` adds one for every profile.
  const queryId = judgedQuery(set.data, query ?? '', profileId)?.id
  const setName = set.data?.name

  const onGrade = useCallback(
    (hit: Hit, grade: Grade | null) => {
      if (!setId || !query) return
      const title = hit.title || hit.id
      call('eval:judge', {
        setId,
        query,
        ...(queryId ? { queryId } : {}),
        docKey: judgedKey(hit),
        grade,
        title: hit.title.slice(0, 1000),
        ...(hit.uri ? { uri: hit.uri.slice(0, 8192) } : {}),
      }).then(
        () => queryClient.invalidateQueries({ queryKey: evalKeys.set(setId) }),
        (error: unknown) =>
          notify({
            tone: 'bad',
            message: `Could not judge “${title}” in ${setName ?? setId}.`,
            detail: error instanceof Error ? error.message : String(error),
          }),
      )
    },
    [setId, query, queryId, queryClient, notify, setName],
  )
  const gradeOf = useCallback((hit: Hit) => grades.get(judgedKey(hit)), [grades])

  if (!setId || !set.data || !query) return null
  return { setName: set.data.name, query, gradeOf, onGrade }
}
