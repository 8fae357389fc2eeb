import type { DoctorResults } from '#shared/ipc/doctor'
import type { ChannelHandlers } from '#shared/ipc/contract'
import type { RagServices } from '../rag-services'

/** IPC handlers of Doctor. */
export function doctorHandlers(services: RagServices): Pick<ChannelHandlers, keyof DoctorResults> {
  return {
    'doctor:run': (request) => services.doctor.run(request ?? {}),
    'doctor:cancel': ({ runId }) => ({ cancelled: services.doctor.cancel(runId) }),
    'doctor:last': (request) => services.doctor.lastReports(request?.server),
  }
}
