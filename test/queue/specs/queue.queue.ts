import { activationSpecs } from '../points/activation';
import { assignSpecs } from '../points/assign';
import { capacitySpecs } from '../points/capacity';
import { deliverySpecs } from '../points/deliveries';
import { sameInstantSpecs } from '../points/duplicates';
import { exampleSpecs } from '../points/examples';
import { lostAnswerSpecs } from '../points/lostAnswers';
import { onlyNewSpecs } from '../points/onlyNew';
import { pollTriggerSpecs } from '../points/pollTrigger';
import { rateLimitSpecs } from '../points/rateLimit';
import { acceptedRunSpecs } from '../points/sigkill';
import { slowProcessSpecs } from '../points/slowProcess';
import { speedToLeadSpecs } from '../points/speedToLead';
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
describe(
	'3. lost first answers and a webhook process restarted: the trigger and Webhook → Verify',
	lostAnswerSpecs,
);
describe('3. duplicates: the same event at both webhook processes at once', sameInstantSpecs);
describe('3. static data under stress', stressSpecs);
describe('3. static data on the workers (n8n 2.41.1)', onlyNewSpecs);
describe(
	'3. the path that reaches zero: Webhook → Event: Verify refuses what is not the service’s',
	verifyPathSpecs,
);
describe('3. the path that reaches zero: the polling trigger', pollTriggerSpecs);
describe('6. the examples in queue mode', exampleSpecs);
describe('7. answering only what n8n accepted', acceptedRunSpecs);
// A measurement of three nginx settings (docs/queue-mode.md), about 6 minutes: run it with
// LC_QUEUE_SLOW_PROCESS=1; CI keeps to the promises.
(process.env.LC_QUEUE_SLOW_PROCESS === '1' ? describe : describe.skip)(
	'8. behind nginx: a webhook process that answers slowly',
	slowProcessSpecs,
);
describe('9. Lead → Assign in queue mode', assignSpecs);
// Before point 10, which moves the service's clock ahead of n8n's (the trigger then refuses events).
describe('11. Lead → Assign: capacity on two workers', capacitySpecs);
describe('10. speed to lead: the not-contacted recipe in queue mode', speedToLeadSpecs);
// Last: it resets the sandbox to 2,500 leads.
describe('5. rate limit shared by two workers, long reads', rateLimitSpecs);
