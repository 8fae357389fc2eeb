import type { Grade } from '#shared/model/evaluation'
import { gradeOfKey } from '../evaluation/grades'

/**
 * What a key pressed on a hit list does: judge the selected hit (0–3, Delete removes its grade,
 * while judging is on) or move the selection (arrows, Home, End, Page Up/Down); else nothing.
 */
export type ListKeyAction =
  { type: 'grade'; grade: Grade | null } | { type: 'select'; index: number }

/** The rows Page Up and Page Down move by. */
const PAGE = 10

/**
 * The action of `event` on a list of `count` hits whose selected row is `selectedIndex` (-1:
 * none; the first move then selects the first row). A grade needs a selected hit and no
 * modifier key.
 */
export function listKeyAction(
  event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean },
  selectedIndex: number,
  count: number,
  judging: boolean,
): ListKeyAction | undefined {
  const selected = selectedIndex >= 0 && selectedIndex < count
  if (judging && selected && !event.ctrlKey && !event.metaKey && !event.altKey) {
    const grade = event.key === 'Delete' ? null : gradeOfKey(event.key)
    if (grade !== undefined) return { type: 'grade', grade }
  }
  const target = moveTarget(event.key, selectedIndex, count)
  if (target === undefined || count === 0) return undefined
  return { type: 'select', index: Math.min(count - 1, target) }
}

/** Where a navigation key moves the selection to, before it is kept inside the list. */
function moveTarget(key: string, selectedIndex: number, count: number): number | undefined {
  switch (key) {
    case 'ArrowDown':
      return selectedIndex + 1
    case 'ArrowUp':
      return Math.max(0, selectedIndex - 1)
    case 'Home':
      return 0
    case 'End':
      return count - 1
    case 'PageDown':
      return selectedIndex + PAGE
    case 'PageUp':
      return Math.max(0, selectedIndex - PAGE)
    default:
      return undefined
  }
}
