import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { EVENT_NAMES } from '../../../shared/ipc/events'
import { subscribe } from '../api'
import { postNotice, useUiStore } from '../state/store'
import { coalescedInvalidation } from './coalesced-invalidation'
import { applyCoreEvent } from './core-events'

/**
 * Subscribes once to every event main pushes and maps it onto the query cache (see
 * {@link applyCoreEvent}). Mount it once, at the root of the app.
 */
export function useCoreEvents(): void {
  const queryClient = useQueryClient()
  useEffect(() => {
    const context = {
      queryClient,
      notify: postNotice,
      showPanel: useUiStore.getState().navigationRequested,
      invalidateSoon: coalescedInvalidation(queryClient),
    }
    const unsubscribers = EVENT_NAMES.map((name) =>
      subscribe(name, (payload) => applyCoreEvent(name, payload, context)),
    )
    return () => unsubscribers.forEach((unsubscribe) => unsubscribe())
  }, [queryClient])
}
