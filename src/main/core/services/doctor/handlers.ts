import type { DoctorResults } from '../../../../shared/ipc/doctor'
import type { Handlers } from '../../api/handlers'
import type { DoctorService } from './doctor-service'

/** IPC handlers of Doctor. */
export function doctorHandlers(doctor: DoctorService): Pick<Handlers, keyof DoctorResults> {
  return {
    'doctor:run': (request) => doctor.run(request?.servers ? { servers: request.servers } : {}),
    'doctor:last': (request) => doctor.lastReports(request?.server),
  }
}
