import { z } from 'zod'
import type { DoctorRun, ServerDoctorReport } from '../model/doctor'

const serverId = z.string().min(1).max(256)
const runId = z.string().min(1).max(128)

/** Doctor: does each server keep its family's contract? */
export const doctorRequests = {
  /**
   * Runs the checks on the named servers (every enabled server when none is named); each
   * server's report arrives as `doctor:progress` as soon as it is done. `runId` names the run
   * for `doctor:cancel` and its events.
   */
  'doctor:run': z
    .object({ runId: runId.optional(), servers: z.array(serverId).max(1000).optional() })
    .optional(),
  /** Stops a running Doctor run: it resolves with the servers that were done, `cancelled: true`. */
  'doctor:cancel': z.object({ runId }),
  /** The last run's report of each server (or of one), kept across restarts. */
  'doctor:last': z.object({ server: serverId.optional() }).optional(),
}

export interface DoctorResults {
  'doctor:run': DoctorRun & { runId: string; cancelled: boolean }
  'doctor:cancel': { cancelled: boolean }
  'doctor:last': DoctorRun
}

export interface DoctorEvents {
  /** One server's report of a running Doctor run, the moment its checks end. */
  'doctor:progress': { runId: string; report: ServerDoctorReport; done: number; total: number }
}
