import { Button, Field, IconButton, Select, TextField } from '../../ui'
import { emptyDraft, type Draft, type FormNode, type LeafNode, type Problem } from './schema-form'

export interface SchemaFormProps {
  form: FormNode
  draft: Draft
  onChange: (draft: Draft) => void
  /** Problems to show next to their fields (JSON pointers). */
  problems: readonly Problem[]
}

/** The fields of a tool's input schema; the root object's fields without a frame. */
export function SchemaForm({ form, draft, onChange, problems }: SchemaFormProps) {
  if (form.kind !== 'object') {
    return <FieldView node={form} draft={draft} path="" onChange={onChange} problems={problems} />
  }
  if (form.fields.length === 0) return <p className="muted">This tool takes no arguments.</p>
  return <ObjectFields node={form} draft={draft} path="" onChange={onChange} problems={problems} />
}

interface FieldViewProps {
  node: FormNode
  draft: Draft
  path: string
  onChange: (draft: Draft) => void
  problems: readonly Problem[]
  /** Shown instead of the node's own title (array items: "Item 1"). */
  label?: string
}

function ObjectFields({ node, draft, path, onChange, problems }: FieldViewProps) {
  if (node.kind !== 'object') return null
  const fields = draft.t === 'object' ? draft.fields : {}
  return (
    <div className="wb-form__fields">
      {node.fields.map((field) => (
        <FieldView
          key={field.name}
          node={field}
          draft={fields[field.name] ?? emptyDraft(field)}
          path={`${path}/${field.name.replace(/~/g, '~0').replace(/\//g, '~1')}`}
          onChange={(next) => onChange({ t: 'object', fields: { ...fields, [field.name]: next } })}
          problems={problems}
        />
      ))}
    </div>
  )
}

const BOOLEAN_OPTIONS = [
  { value: '', label: '(not set)' },
  { value: 'true', label: 'true' },
  { value: 'false', label: 'false' },
] as const

function FieldView(props: FieldViewProps) {
  const { node, draft, path, onChange, problems } = props
  const error = problems
    .filter((p) => p.path === path)
    .map((p) => p.message)
    .join('; ')
  const name = props.label ?? node.title
  const label = (
    <>
      {name}
      {node.required && <span aria-hidden="true"> *</span>}
      {node.kind !== 'object' && node.kind !== 'array' && (
        <span className="wb-form__type"> {node.kind === 'json' ? 'JSON' : node.kind}</span>
      )}
    </>
  )
  const isNull = draft.t === 'null'
  const nullToggle = node.nullable && (
    <label className="wb-form__null">
      <input
        type="checkbox"
        checked={isNull}
        onChange={(event) => onChange(event.target.checked ? { t: 'null' } : emptyDraft(node))}
      />
      null
    </label>
  )
  if (isNull) {
    return (
      <div className="wb-form__row">
        <span className="wb-form__label">{label}</span>
        <span className="muted">null</span>
        {nullToggle}
      </div>
    )
  }
  if (node.kind !== 'object' && node.kind !== 'array') {
    return (
      <div className="wb-form__line">
        <ScalarControl node={node} draft={draft} onChange={onChange} label={label} error={error} />
        {nullToggle}
      </div>
    )
  }
  return (
    <fieldset className="wb-form__group">
      <legend>
        {label} {nullToggle}
      </legend>
      {node.description && <p className="muted wb-form__hint">{node.description}</p>}
      {node.kind === 'object' ? (
        <ObjectFields {...props} />
      ) : (
        <ArrayItems {...props} name={name} error={error} />
      )}
    </fieldset>
  )
}

/** The items of an array, each removable, and "Add". */
function ArrayItems({
  node,
  draft,
  path,
  onChange,
  problems,
  name,
  error,
}: FieldViewProps & { name: string; error: string }) {
  if (node.kind !== 'array') return null
  const items = draft.t === 'array' ? draft.items : []
  const setItems = (next: Draft[]): void => onChange({ t: 'array', items: next })
  return (
    <>
      {error && <p className="wb-form__error">{error}</p>}
      {items.map((item, index) => (
        <div className="wb-form__item" key={index}>
          <FieldView
            node={node.items}
            draft={item}
            path={`${path}/${index}`}
            label={`${name} ${index + 1}`}
            onChange={(next) => setItems(items.map((old, i) => (i === index ? next : old)))}
            problems={problems}
          />
          <IconButton
            icon="trash"
            label={`Remove ${name} ${index + 1}`}
            onClick={() => setItems(items.filter((_, i) => i !== index))}
          />
        </div>
      ))}
      <Button
        variant="ghost"
        icon="plus"
        onClick={() => setItems([...items, emptyDraft(node.items)])}
      >
        Add {name === '' ? 'item' : `to ${name}`}
      </Button>
    </>
  )
}

interface ScalarProps {
  node: LeafNode
  draft: Draft
  onChange: (draft: Draft) => void
  label: React.ReactNode
  error: string
}

/** The one control of a leaf: a choice, a number or text field, or JSON text. */
function ScalarControl({ node, draft, onChange, label, error }: ScalarProps) {
  const hint = node.description
  const text = draft.t === 'text' ? draft.text : ''
  const setText = (value: string): void => onChange({ t: 'text', text: value })
  const shared = { label, hint, error: error || undefined }
  switch (node.kind) {
    case 'boolean':
      return (
        <Select
          {...shared}
          value={draft.t === 'bool' && draft.value !== undefined ? String(draft.value) : ''}
          options={BOOLEAN_OPTIONS}
          onChange={(value) =>
            onChange({ t: 'bool', value: value === '' ? undefined : value === 'true' })
          }
        />
      )
    case 'enum':
      return (
        <Select
          {...shared}
          value={text}
          options={[
            { value: '', label: '(not set)' },
            ...node.options.map((option, index) => ({
              value: String(index),
              label: typeof option === 'string' ? option : JSON.stringify(option),
            })),
          ]}
          onChange={setText}
        />
      )
    case 'json':
      return (
        <Field {...shared}>
          {(control) => (
            <textarea
              className="ui-input ui-input--mono wb-form__textarea"
              rows={3}
              value={text}
              onChange={(event) => setText(event.target.value)}
              {...control}
            />
          )}
        </Field>
      )
    case 'string':
    case 'number':
    case 'integer':
      return (
        <TextField
          {...shared}
          value={text}
          inputMode={node.kind === 'string' ? undefined : 'decimal'}
          onChange={(event) => setText(event.target.value)}
        />
      )
  }
}
