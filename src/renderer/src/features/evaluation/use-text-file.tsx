import { useRef } from 'react'
import { readChosenFile } from '../../lib/read-file'
import { MAX_IMPORT_BYTES, type PickedFile } from './set-import'

/**
 * A hidden file input read as text (20 MB at most): render `input` anywhere and call `choose`
 * from a button, so the button is what people (and screen readers) see.
 */
export function useTextFile(
  accept: string,
  onPick: (file: PickedFile) => void,
  onError: (message: string) => void,
): { choose: () => void; input: React.JSX.Element } {
  const ref = useRef<HTMLInputElement>(null)
  const input = (
    <input
      ref={ref}
      type="file"
      accept={accept}
      className="visually-hidden"
      tabIndex={-1}
      aria-hidden="true"
      onChange={(event) => {
        const chosen = event.target.files?.[0]
        // The same file chosen again must fire again.
        event.target.value = ''
        if (!chosen) return
        if (chosen.size > MAX_IMPORT_BYTES) {
          onError(`${chosen.name} is larger than 20 MB, the most the console reads.`)
          return
        }
        // readChosenFile never rejects: a failed read comes back as words for onError.
        void readChosenFile(chosen).then((read) =>
          'error' in read ? onError(read.error) : onPick(read),
        )
      }}
    />
  )
  return { choose: () => ref.current?.click(), input }
}
