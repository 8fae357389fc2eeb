import { useMutation, useQueryClient } from '@tanstack/react-query'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { profileKeys } from './queries'

/** Makes a profile the acting user for every operation; says so when it cannot. */
export function useActivateProfile() {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  return useMutation({
    mutationFn: (id: string) => call('profiles:activate', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.all }),
    onError: (error) =>
      notify({ tone: 'bad', message: `Could not switch the acting user: ${error.message}` }),
  })
}
