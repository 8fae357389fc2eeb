import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { EVENT_NAMES, isOptInEvent } from '#shared/ipc/events'
import { subscribe } from '../api'
import { postNotice, useUiStore } from '../state/store'
import { coalescedInvalidation } from './coalesced-invalidation'
import { applyCoreEvent, type AppEventName } from './core-events'

/** The events every page gets; the opt-in ones are listened to by the views that show them. */
const APP_EVENTS = EVENT_NAMES.filter((name): name is AppEventName => !isOptInEvent(name))

/**
 * Subscribes once to every event main pushes to every page and maps it onto the query cache
 * (see {@link applyCoreEvent}). Mount it once, at the root of the app.
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
    const unsubscribers = APP_EVENTS.map((name) =>
      subscribe(name, (payload) => applyCoreEvent(name, payload, context)),
    )
    return () => unsubscribers.forEach((unsubscribe) => unsubscribe())
  }, [queryClient])
}
