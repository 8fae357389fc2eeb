import type { StateCreator } from 'zustand'
import type { ToastItem } from '../ui'

/** At most this many notices are on screen; older ones make room. */
const MAX_TOASTS = 4

export type NoticeInput = Omit<ToastItem, 'id'>

/** Transient notices (toasts) and the last announcement for screen readers. */
export interface NoticesSlice {
  toasts: ToastItem[]
  /** Posts a notice; returns its id. */
  noticePosted: (notice: NoticeInput) => number
  noticeDismissed: (id: number) => void
}

let nextId = 1

export const createNoticesSlice: StateCreator<NoticesSlice, [], [], NoticesSlice> = (set) => ({
  toasts: [],
  noticePosted: (notice) => {
    const id = nextId++
    set((state) => ({ toasts: [...state.toasts, { ...notice, id }].slice(-MAX_TOASTS) }))
    return id
  },
  noticeDismissed: (id) => set((state) => ({ toasts: state.toasts.filter((t) => t.id !== id) })),
})
