import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { LinkPolicyState } from '#shared/ipc/profiles'
import { call } from '../../api'
import { Banner, Button, Field } from '../../ui'
import { accessKeys, accessQueries } from './queries'

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')

/** Which addresses the citation checker may request; a save applies to the next check. */
export function LinkPolicyForm(): React.JSX.Element | null {
  const policy = useQuery(accessQueries.linkPolicy())
  if (policy.isError) {
    return (
      <Banner tone="bad" title="The link policy could not be read">
        {policy.error.message}
      </Banner>
    )
  }
  // The draft starts from the saved policy once it is loaded.
  return policy.data ? <PolicyDraft saved={policy.data} /> : null
}

function PolicyDraft({ saved }: { saved: LinkPolicyState }): React.JSX.Element {
  const queryClient = useQueryClient()
  const [allow, setAllow] = useState(saved.allowHosts.join('\n'))
  const [deny, setDeny] = useState(saved.denyHosts.join('\n'))
  const [inside, setInside] = useState(saved.privateHosts.join('\n'))
  const save = useMutation({
    mutationFn: () =>
      call('link-policy:set', {
        allowHosts: lines(allow),
        denyHosts: lines(deny),
        privateHosts: lines(inside),
      }),
    onSuccess: (now) => {
      queryClient.setQueryData(accessKeys.linkPolicy(), now)
      // Shown as stored: blank lines dropped, spaces trimmed.
      setAllow(now.allowHosts.join('\n'))
      setDeny(now.denyHosts.join('\n'))
      setInside(now.privateHosts.join('\n'))
    },
  })
  const edited = (set: (text: string) => void) => (text: string) => {
    set(text)
    save.reset()
  }
  return (
    <form
      className="access-policy"
      aria-label="Link policy"
      onSubmit={(event) => {
        event.preventDefault()
        save.mutate()
      }}
    >
      <p className="access-policy__intro">
        The checker never requests the console’s own port, link-local or cloud metadata addresses,
        nor this machine or private networks (10.x, 172.16–31.x, 192.168.x, fc00::/7) unless a
        registry server runs on that host or it is listed under Private hosts. A saved change
        applies to the next check.
      </p>
      <div className="access-policy__fields">
        <HostList
          label="Allowed hosts"
          hint="One per line; subdomains included. Empty: any host."
          placeholder="docs.example.com"
          value={allow}
          onChange={edited(setAllow)}
        />
        <HostList
          label="Denied hosts"
          hint="One per line: a host (subdomains included), an address or a CIDR range."
          placeholder={'intranet.example.com\n10.0.0.0/8'}
          value={deny}
          onChange={edited(setDeny)}
        />
        <HostList
          label="Private hosts"
          hint="Intranet document hosts on this machine or a private network that may be checked: a host, an address or a CIDR range."
          placeholder={'wiki.corp.example\n10.20.0.0/16'}
          value={inside}
          onChange={edited(setInside)}
        />
      </div>
      <div className="access-policy__actions">
        <Button type="submit" icon="save" disabled={save.isPending}>
          Save link policy
        </Button>
        <span role="status" className="access-policy__status">
          {save.isSuccess ? 'Saved; the next check applies it.' : ''}
        </span>
      </div>
      {save.isError && (
        <Banner tone="bad" title="The link policy was not saved">
          {save.error.message}
        </Banner>
      )}
    </form>
  )
}

interface HostListProps {
  label: string
  hint: string
  placeholder: string
  value: string
  onChange: (text: string) => void
}

function HostList({ label, hint, placeholder, value, onChange }: HostListProps): React.JSX.Element {
  return (
    <Field label={label} hint={hint}>
      {(control) => (
        <textarea
          {...control}
          className="ui-input ui-input--mono access-policy__text"
          rows={4}
          spellCheck={false}
          placeholder={placeholder}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  )
}
