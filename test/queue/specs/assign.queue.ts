import { assignSpecs } from '../points/assign';
import { useQueueCluster } from '../support/suite';

// Point 9 alone, on a cluster of its own: `npx jest -c test/queue/jest.config.js
// test/queue/specs/assign.queue.ts` (`npm run test:queue` runs it too).

useQueueCluster();

describe('9. Lead → Assign in queue mode', assignSpecs);
