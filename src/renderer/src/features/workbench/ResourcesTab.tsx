import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api'
import { Banner, Button, cx, Spinner, TextField } from '../../ui'
import { Body } from './ContentBlocks'
import { PagedList } from './PagedList'
import { workbenchQueries } from './queries'
import { expandTemplate } from './uri-template'

type Item = Record<string, unknown>
const str = (value: unknown): string => (typeof value === 'string' ? value : '')

/** A server's resources and templates, one page at a time; read one, subscribe to it. */
export function ResourcesTab({ server }: { server: string }) {
  const resources = useInfiniteQuery(workbenchQueries.resources(server))
  const templates = useInfiniteQuery(workbenchQueries.templates(server))
  const [uri, setUri] = useState<string | null>(null)
  return (
    <div className="wb-split">
      <div className="wb-split__list">
        <PagedList
          query={resources}
          server={server}
          noun="resources"
          label={`Resources of ${server}`}
          itemKey={(item) => str(item.uri)}
        >
          {(item) => (
            <button
              type="button"
              className={cx('wb-items__item', str(item.uri) === uri && 'is-selected')}
              aria-current={str(item.uri) === uri ? 'true' : undefined}
              onClick={() => setUri(str(item.uri))}
            >
              <span>{str(item.name) || str(item.uri)}</span>
              <code className="muted">{str(item.uri)}</code>
            </button>
          )}
        </PagedList>
        <PagedList
          query={templates}
          server={server}
          noun="resource templates"
          label={`Resource templates of ${server}`}
          itemKey={(item) => str(item.uriTemplate)}
          optional
        >
          {(item) => <TemplateItem item={item} onRead={setUri} />}
        </PagedList>
      </div>
      {uri ? (
        <ResourceView key={uri} server={server} uri={uri} />
      ) : (
        <p className="muted wb-split__hint">Choose a resource to read it.</p>
      )}
    </div>
  )
}

function TemplateItem({
  item,
  onRead,
}: {
  item: Item & { variables?: string[] }
  onRead: (uri: string) => void
}) {
  const template = str(item.uriTemplate)
  const [values, setValues] = useState<Record<string, string>>({})
  return (
    <div className="wb-template">
      <span>{str(item.name) || template}</span>
      <code className="muted">{template}</code>
      <form
        className="wb-template__form"
        onSubmit={(event) => {
          event.preventDefault()
          onRead(expandTemplate(template, values))
        }}
      >
        {(item.variables ?? []).map((name) => (
          <TextField
            key={name}
            label={name}
            inline
            value={values[name] ?? ''}
            onChange={(event) => setValues({ ...values, [name]: event.target.value })}
          />
        ))}
        <Button type="submit">Read</Button>
      </form>
    </div>
  )
}

function ResourceView({ server, uri }: { server: string; uri: string }) {
  const read = useQuery(workbenchQueries.read(server, uri))
  const [subscribed, setSubscribed] = useState(false)
  const subscribe = useMutation({
    mutationFn: (on: boolean) => call('workbench:subscribe', { server, uri, subscribe: on }),
    onSuccess: (answer) => setSubscribed(answer.subscribed),
  })
  return (
    <section className="wb-split__detail" aria-label={`Resource ${uri}`}>
      <div className="wb-split__detail-head">
        <h3>
          <code>{uri}</code>
        </h3>
        <Button busy={subscribe.isPending} onClick={() => subscribe.mutate(!subscribed)}>
          {subscribed ? 'Unsubscribe' : 'Subscribe to updates'}
        </Button>
      </div>
      {subscribe.isError && (
        <Banner tone="warn" title="Could not change the subscription">
          {subscribe.error.message}
        </Banner>
      )}
      {read.isPending ? (
        <Spinner label="Reading…" />
      ) : read.isError ? (
        <Banner tone="bad" title={`Could not read ${uri}`}>
          {read.error.message}
        </Banner>
      ) : (
        <ol className="wb-blocks" aria-label="Contents">
          {(read.data?.contents ?? []).map((content, index) => (
            <li key={index} className="wb-block">
              <div className="wb-block__head">
                <span className="wb-block__kind">{'blob' in content ? 'blob' : 'text'}</span>
                <span className="muted">{str(content.mimeType)}</span>
              </div>
              <Body
                {...(typeof content.text === 'string' ? { text: content.text } : {})}
                {...(typeof content.blob === 'string' ? { blob: content.blob } : {})}
                {...(str(content.mimeType) ? { mime: str(content.mimeType) } : {})}
                label={`Content ${index + 1}`}
              />
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
