import { useInfiniteQuery, useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api'
import { Banner, Button, cx, TextField } from '../../ui'
import { JsonBlock } from '../search/JsonBlock'
import { ContentBlocks } from './ContentBlocks'
import { PagedList } from './PagedList'
import { workbenchQueries } from './queries'

type Prompt = Record<string, unknown>
interface PromptArgument {
  name: string
  description?: string
  required?: boolean
}
const str = (value: unknown): string => (typeof value === 'string' ? value : '')

/** A server's prompts, one page at a time; get one with its arguments. */
export function PromptsTab({ server }: { server: string }) {
  const prompts = useInfiniteQuery(workbenchQueries.prompts(server))
  const [chosen, setChosen] = useState<Prompt | null>(null)
  return (
    <div className="wb-split">
      <div className="wb-split__list">
        <PagedList
          query={prompts}
          server={server}
          noun="prompts"
          label={`Prompts of ${server}`}
          itemKey={(item) => str(item.name)}
        >
          {(item) => (
            <button
              type="button"
              className={cx('wb-items__item', item === chosen && 'is-selected')}
              aria-current={item === chosen ? 'true' : undefined}
              onClick={() => setChosen(item)}
            >
              <span>{str(item.name)}</span>
              {str(item.description) && <span className="muted">{str(item.description)}</span>}
            </button>
          )}
        </PagedList>
      </div>
      {chosen ? (
        <PromptView key={str(chosen.name)} server={server} prompt={chosen} />
      ) : (
        <p className="muted wb-split__hint">Choose a prompt to get it.</p>
      )}
    </div>
  )
}

function PromptView({ server, prompt }: { server: string; prompt: Prompt }) {
  const name = str(prompt.name)
  const params = (Array.isArray(prompt.arguments) ? prompt.arguments : []) as PromptArgument[]
  const [values, setValues] = useState<Record<string, string>>({})
  const get = useMutation({
    mutationFn: () => {
      const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''))
      return call('workbench:get-prompt', { server, name, arguments: args })
    },
  })
  const missing = params.filter((p) => p.required && !values[p.name])
  const messages = (Array.isArray(get.data?.messages) ? get.data.messages : []) as Prompt[]
  return (
    <section className="wb-split__detail" aria-label={`Prompt ${name}`}>
      <h3>{name}</h3>
      <form
        className="wb-form__fields"
        onSubmit={(event) => {
          event.preventDefault()
          if (missing.length === 0) get.mutate()
        }}
      >
        {params.map((p) => (
          <TextField
            key={p.name}
            label={
              <>
                {p.name}
                {p.required && <span aria-hidden="true"> *</span>}
              </>
            }
            hint={p.description}
            required={p.required}
            value={values[p.name] ?? ''}
            onChange={(event) => setValues({ ...values, [p.name]: event.target.value })}
          />
        ))}
        <div>
          <Button
            type="submit"
            variant="primary"
            busy={get.isPending}
            disabled={missing.length > 0}
          >
            Get prompt
          </Button>
        </div>
      </form>
      {get.isError && (
        <Banner tone="bad" title={`Could not get ${name}`}>
          {get.error.message}
        </Banner>
      )}
      {get.isSuccess && (
        <>
          <ol className="wb-messages" aria-label="Messages">
            {messages.map((message, index) => (
              <li key={index}>
                <span className="wb-block__kind">{str(message.role)}</span>
                <ContentBlocks
                  blocks={Array.isArray(message.content) ? message.content : [message.content]}
                  label={`Message ${index + 1}`}
                />
              </li>
            ))}
          </ol>
          <JsonBlock title="Raw result" value={get.data} />
        </>
      )}
    </section>
  )
}
