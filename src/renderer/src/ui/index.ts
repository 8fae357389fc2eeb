/** The console's design system: small, dense, accessible components on plain CSS. */
export { Badge, StatusBadge, STATUSES, type Status, type Tone } from './Badge'
export { Banner } from './Banner'
export { Button, type ButtonVariant } from './Button'
export { ConfirmDialog } from './ConfirmDialog'
export { CopyButton } from './CopyButton'
export { cx } from './cx'
export { Dialog } from './Dialog'
export { EmptyState } from './EmptyState'
export { Field } from './Field'
export { IconButton } from './IconButton'
export { Icon, type IconName } from './icons'
export { Kbd, ariaShortcut, formatShortcut, isMac } from './Kbd'
export { LineChart, type ChartSeries } from './LineChart'
export { Popover } from './Popover'
export { Select, type SelectOption } from './Select'
export { Spinner } from './Spinner'
export { EmptyRow, Table } from './Table'
export { TabPanel, Tabs, type TabSpec } from './Tabs'
export { PasswordField, TextField } from './TextField'
export { ToastList, type ToastItem } from './Toast'
export {
  SpacerRow,
  TABLE_ROW_ESTIMATE,
  tableWindow,
  VirtualTable,
  type Column,
} from './VirtualTable'
export { Toggle } from './Toggle'
