import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { ImportSource, ImportPreview } from '#shared/ipc/registry'
import { call } from '../../api'
import { readChosenFile } from '../../lib/read-file'
import { useConfigDirty } from '../../state/store'
import { importSourceOf, type ImportChoice } from './import-view'
import { configQueries } from './queries'

/**
 * The Import tab's pick and preview: the known config files, which file is picked (a found
 * one, another path, or an upload), reading an uploaded file, and the preview main returns.
 */
export function useImportTab() {
  const candidates = useQuery(configQueries.importCandidates())
  const dirty = useConfigDirty()
  const [choice, setChoice] = useState<string>('')
  const [otherPath, setOtherPath] = useState('')
  const [upload, setUpload] = useState<ImportChoice['upload']>(null)
  const [uploadError, setUploadError] = useState<string | null>(null)
  const [previewed, setPreviewed] = useState<{
    source: ImportSource
    preview: ImportPreview
  } | null>(null)

  const preview = useMutation({
    mutationFn: (from: ImportSource) => call('config:import-preview', from),
    onSuccess: (result, from) => setPreviewed({ source: from, preview: result }),
  })

  const fileChosen = (file: File | undefined): void => {
    if (!file) return
    // readChosenFile never rejects: a failed read comes back as words to show.
    void readChosenFile(file).then((read) => {
      if ('error' in read) return setUploadError(read.error)
      setUploadError(null)
      setUpload(read)
      setChoice('upload')
    })
  }

  return {
    candidates,
    /** The config editor has unsaved changes. */
    dirty,
    choice,
    pick: setChoice,
    otherPath,
    setOtherPath,
    upload,
    uploadError,
    fileChosen,
    /** What "Preview import" sends; null while the pick is not complete. */
    source: importSourceOf({ choice, otherPath, upload }),
    preview,
    previewed,
  }
}
