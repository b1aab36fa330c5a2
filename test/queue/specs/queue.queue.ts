import { activationSpecs } from '../points/activation';
import { deliverySpecs } from '../points/deliveries';
import { triggerDuplicateSpecs } from '../points/duplicates';
import { exampleSpecs } from '../points/examples';
import { onlyNewSpecs } from '../points/onlyNew';
import { pollTriggerSpecs } from '../points/pollTrigger';
import { rateLimitSpecs } from '../points/rateLimit';
import { refusedRunSpecs, sigkillSpecs } from '../points/sigkill';
import { slowProcessSpecs } from '../points/slowProcess';
import { stressSpecs } from '../points/stress';
import { verifyPathSpecs } from '../points/verifyPath';
import { useQueueCluster } from '../support/suite';

// The package's promises in n8n's queue mode. One cluster (main, 2 workers, 2 webhook
// processes, nginx as the balancer, Redis, Postgres) serves every point, in this order; each
// point lives in its own module under ../points. Each test prints the figure it measured, then
// asserts its target.

useQueueCluster();

describe('1. activation, restarts of main, deactivation', activationSpecs);
describe('2. signed deliveries through the balancer', deliverySpecs);
describe('3. duplicates: the webhook trigger across processes and restarts', triggerDuplicateSpecs);
describe('3. static data under stress', stressSpecs);
describe('3. static data on the workers (n8n 2.41.1)', onlyNewSpecs);
describe('3. the path that reaches zero: Webhook → Event: Verify', verifyPathSpecs);
describe('3. the path that reaches zero: the poll trigger', pollTriggerSpecs);
describe('6. the examples in queue mode', exampleSpecs);
describe('7. answering only what n8n accepted: SIGKILL of a webhook process', sigkillSpecs);
describe('7. answering only what n8n accepted: n8n cannot create the run', refusedRunSpecs);
// A measurement of two nginx timeouts (docs/queue-mode.md), about 4 minutes: run it with
// LC_QUEUE_SLOW_PROCESS=1; CI keeps to the promises.
(process.env.LC_QUEUE_SLOW_PROCESS === '1' ? describe : describe.skip)(
	'8. behind nginx: a webhook process that answers slowly',
	slowProcessSpecs,
);
// Last: it resets the sandbox to 2,500 leads.
describe('5. rate limit shared by two workers, long reads', rateLimitSpecs);
