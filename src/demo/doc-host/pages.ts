import { SOURCE_NAMES, docText } from '../data/corpus'
import type { Doc } from '../data/types'
import { escapeHtml as escape, page } from '../html'

/** A document rendered for reading. */
export function docPage(doc: Doc): string {
  const title = doc.title || doc.fileName
  const paragraphs = docText(doc)
    .split('\n\n')
    .map((block) => `<p>${escape(block).replace('\n', '<br>')}</p>`)
    .join('')
  const meta = `${escape(SOURCE_NAMES[doc.source])} · ${escape(doc.author)} · updated ${doc.updated.slice(0, 10)}`
  return page(title, `<h1>${escape(title)}</h1><p><small>${meta}</small></p>${paragraphs}`)
}

/** An error page with a reason a person can act on. */
export function errorPage(status: number, title: string, detail: string): string {
  return page(`${status} ${title}`, `<h1>${status} ${escape(title)}</h1><p>${escape(detail)}</p>`)
}

export const LOGIN_PAGE = page(
  'Sign in — Acme intranet',
  '<h1>Sign in</h1><form method="post" action="/login"><label>Email <input name="email"></label> <label>Password <input name="password" type="password"></label> <button>Sign in</button></form>',
)

/** What the document host serves, for a person who opens its root. */
export const INDEX_PAGE = page(
  'Demo document host',
  `<h1>Demo document host</h1><ul>
<li><code>/docs/&lt;id&gt;</code>: internal documents (200); restricted ones need a signed link (403)</li>
<li><code>/docs/&lt;id&gt;?u=&lt;user&gt;&amp;exp=&lt;epoch&gt;&amp;sig=&lt;hmac&gt;</code>: signed link; 403 when expired, tampered or revoked for that user</li>
<li>deleted documents answer 410, moved or unknown ones 404</li>
<li><code>/portal/&lt;id&gt;</code>: 302 to <code>/login</code></li>
<li><code>/throttled/&lt;id&gt;</code>: 429 with Retry-After; <code>/error/&lt;id&gt;</code>: 500</li>
</ul>`,
)
