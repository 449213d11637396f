/** A device config the executor cannot run (not our IR, or a feature it lacks). */
import { P4inaError } from '../../errors/p4ina-error.js';

export class PipelineLoadError extends P4inaError {
  constructor(message: string) {
    super('PIPELINE_LOAD', message);
  }
}
