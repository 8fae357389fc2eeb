import { z } from 'zod'
import type { DoctorRun } from '../model/doctor'

const serverId = z.string().min(1).max(256)

/** Doctor: does each server keep its family's contract? */
export const doctorRequests = {
  /** Runs the checks on the named servers (every enabled server when none is named). */
  'doctor:run': z.object({ servers: z.array(serverId).max(1000).optional() }).optional(),
  /** The last run's report of each server (or of one), kept across restarts. */
  'doctor:last': z.object({ server: serverId.optional() }).optional(),
}

export interface DoctorResults {
  'doctor:run': DoctorRun
  'doctor:last': DoctorRun
}
