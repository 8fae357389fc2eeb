import { escapeHtml, page } from '../html'

/** The small HTML report returned as a synthesis artifact. */
export function reportHtml(
  query: string,
  answer: string,
  citations: Array<{ n: number; title: string; uri?: string; resourceId?: string | undefined }>,
): string {
  const items = citations
    .map((citation) => {
      const title = escapeHtml(citation.title || 'untitled')
      const link = citation.uri?.startsWith('http')
        ? `<a href="${escapeHtml(citation.uri)}">${title}</a>`
        : title
      return `<li value="${citation.n}">${link} <small>${escapeHtml(citation.resourceId ?? '')}</small></li>`
    })
    .join('')
  return page(
    `Answer: ${query}`,
    `<h1>${escapeHtml(query)}</h1><p>${escapeHtml(answer)}</p><h2>Sources</h2><ol>${items}</ol>`,
  )
}
