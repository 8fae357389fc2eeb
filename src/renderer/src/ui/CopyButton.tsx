import { useEffect, useState } from 'react'
import { Button } from './Button'

export interface CopyButtonProps {
  /** The text put on the clipboard. */
  text: string
  /** Accessible name, e.g. "Copy refreshed URL". */
  label: string
  className?: string
}

/**
 * Copies `text` to the clipboard and says so for two seconds ("Copied"), or says it could not
 * (the clipboard may be denied), so the user knows to select and copy by hand.
 */
export function CopyButton({ text, label, className }: CopyButtonProps): React.JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), 2000)
    return () => clearTimeout(timer)
  }, [state])
  return (
    <Button
      variant="ghost"
      icon={state === 'copied' ? 'check' : 'copy'}
      aria-label={label}
      title={
        state === 'failed' ? 'The clipboard is not available: select the text and copy it' : label
      }
      className={className}
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setState('copied'),
          () => setState('failed'),
        )
      }}
    >
      <span aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
      </span>
    </Button>
  )
}
