/**
 * Hands a text file to the browser's download (the Electron window turns it into a Save
 * dialog). A Blob URL keeps the text inside the page: nothing is uploaded or opened.
 */
export function downloadText(fileName: string, mime: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }))
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = fileName
  anchor.hidden = true
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  // Revoking at once can cancel a download that has not started reading yet.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
