// Module worker entry for the runner (lab-runner.js): a second GateLab module instance that
// runs the tasks of lab-tasks.js off the main thread.
import { serveTasks } from './worker-loop.js';

serveTasks(self);
