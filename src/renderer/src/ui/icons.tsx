/**
 * Small stroke icons drawn on a 16×16 grid, inlined as SVG (no icon font, no remote assets).
 * Icons are decorative: the control that holds one carries the accessible name.
 */
const PATHS = {
  servers: 'M2.5 3h11v4h-11zM2.5 9h11v4h-11zM5 5h.01M5 11h.01',
  search: 'M7 12.5a5.5 5.5 0 1 0 0-11 5.5 5.5 0 0 0 0 11zM11 11l3.5 3.5',
  access:
    'M10.5 9.5a3.5 3.5 0 1 0-3.3-2.3L2 12.5V14h2.5v-1.5H6V11h1.5l1-1a3.5 3.5 0 0 0 2 .5zM11 5h.01',
  health: 'M1.5 8.5h3l1.5-4 3 8 1.5-4h4',
  config: 'M4 1.5h5.5L13 5v9.5H4zM9.5 1.5V5H13M6.5 9 5.5 10l1 1M10.5 9l1 1-1 1',
  audit: 'M3 2.5h10v11H3zM5.5 5.5h5M5.5 8h5M5.5 10.5h3',
  workbench: 'M5.5 4.5 2 8l3.5 3.5M10.5 4.5 14 8l-3.5 3.5M9 3 7 13',
  evaluation: 'M2 13.5h12M3.5 13.5V9M6.5 13.5V5.5M9.5 13.5V7.5M12.5 13.5V2.5',
  play: 'M4.5 2.5v11l9-5.5z',
  pin: 'M6 2h4l-.5 4 2.5 2.5v1h-7v-1L7.5 6zM8 9.5V14',
  download: 'M8 2.5v8M4.5 7 8 10.5 11.5 7M2.5 13.5h11',
  user: 'M8 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2.5 14.5c.5-3 2.7-4.5 5.5-4.5s5 1.5 5.5 4.5',
  users:
    'M6 7.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM1.5 13.5c.4-2.6 2.2-4 4.5-4s4.1 1.4 4.5 4M10.5 2.7a2.5 2.5 0 0 1 0 4.6M12 9.7c1.4.5 2.3 1.7 2.5 3.8',
  plus: 'M8 3v10M3 8h10',
  trash: 'M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4M6.7 6.5v5M9.3 6.5v5',
  edit: 'M10.5 2.5l3 3-8 8H2.5v-3zM9 4l3 3',
  refresh: 'M13.5 3v3.5H10M2.5 13V9.5H6M3.2 6.5a5 5 0 0 1 9.3-1M12.8 9.5a5 5 0 0 1-9.3 1',
  save: 'M2.5 2.5h9l2 2v9h-11zM5 2.5v3.5h5V2.5M5 13.5V9.5h6v4',
  close: 'M4 4l8 8M12 4l-8 8',
  check: 'M3 8.5l3 3 7-7',
  warning: 'M8 2 1.5 13.5h13zM8 6.5v3.5M8 12h.01',
  error: 'M8 14.5a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM5.7 5.7l4.6 4.6M10.3 5.7l-4.6 4.6',
  info: 'M8 14.5a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM8 7.5v4M8 5h.01',
  chevronDown: 'M4 6l4 4 4-4',
  chevronRight: 'M6 4l4 4-4 4',
  file: 'M4 1.5h5.5L13 5v9.5H4zM9.5 1.5V5H13',
  layers: 'M8 2 1.5 5.5 8 9l6.5-3.5zM1.5 8.5 8 12l6.5-3.5M1.5 11.5 8 15l6.5-3.5',
  upload: 'M8 10.5V2.5M4.5 6 8 2.5 11.5 6M2.5 10.5v3h11v-3',
  lock: 'M3.5 7h9v7h-9zM5.5 7V5a2.5 2.5 0 0 1 5 0v2',
  key: 'M5.5 10.5a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.3 8.5h6.2M12.5 8.5v2.5M10.5 8.5v1.5',
  clock: 'M8 14.5a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM8 4.5V8l2.5 1.5',
  diff: 'M4.5 2v6M1.5 5h6M1.5 12.5h6M11.5 2.5v11M9 11l2.5 2.5L14 11',
  import: 'M8 2.5v8M4.5 7 8 10.5 11.5 7M2.5 13.5h11',
  history: 'M2.5 8a5.5 5.5 0 1 0 1.6-3.9M2 2.5V5h2.5M8 5v3.2l2 1.3',
  copy: 'M5.5 5.5h8v8h-8zM10.5 5.5v-3h-8v8h3',
  link: 'M6.5 9.5l3-3M7 4.5l1.2-1.2a2.8 2.8 0 0 1 4 4L11 8.5M9 11.5l-1.2 1.2a2.8 2.8 0 0 1-4-4L5 7.5',
} as const

export type IconName = keyof typeof PATHS

export interface IconProps {
  name: IconName
  /** Pixel size; the grid is 16. */
  size?: number
  className?: string
}

/** One decorative icon, coloured by `currentColor`. */
export function Icon({ name, size = 14, className }: IconProps): React.JSX.Element {
  return (
    <svg
      className={className ? `ui-icon ${className}` : 'ui-icon'}
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.4}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  )
}
