import { randomUUID } from 'crypto';

import {
	SPEED_ROSTER,
	assignmentWorkflow,
	createBody,
	createSpeedTables,
	expectSpeedCounts,
	recipeWorkflow,
	runSpeedToLead,
	speedFigure,
	type SpeedRig,
} from '../../support/speedToLead';
import { recordFigure } from '../support/figures';
import { suite } from '../support/suite';

// Point 10: the speed-to-lead recipe in queue mode, as the README tells queue users to run it
// (it ships with Turns = Spread by Lead ID): the poll on the leader main, Lead → Assign and the
// notices on the workers. The 40 leads are assigned by the round-robin example set to Spread by
// Lead ID. Main restarts between the first misses and the second. Same scenario and counts as
// test/e2e/specs/speed-to-lead.e2e.ts; tables of their own, polls every 10 s.

const TABLES = { roster: 'Speed advisors roster', handoffs: 'Speed lead hand-offs' };
const POLL_SECONDS = 10;

export function speedToLeadSpecs(): void {
	it('40 assigned, 25 answered, 5 closed: 10 passed on once each on the workers, 6 answered, 4 escalated; main restarted between', async () => {
		const { cluster, sandbox } = suite;
		const handoffsTableId = await createSpeedTables(cluster.api, TABLES);
		const ids: string[] = [];
		for (const workflow of [
			assignmentWorkflow(TABLES, { turns: 'spread', webhookId: randomUUID() }),
			recipeWorkflow(TABLES, POLL_SECONDS),
		]) {
			const created = await cluster.api.request('POST', '/workflows', createBody(workflow));
			if (created.status !== 200) throw new Error(`POST /workflows: ${created.text}`);
			ids.push(String(created.json.id));
		}
		const [assignmentId, recipeId] = ids;
		await cluster.activate(assignmentId);
		await cluster.activate(recipeId);
		const rig: SpeedRig = {
			sandbox,
			api: () => cluster.api,
			recipeId,
			assignmentId,
			handoffsTableId,
			pollSeconds: POLL_SECONDS,
			roster: SPEED_ROSTER,
			stop: () => cluster.main.stop(),
			start: () => cluster.main.start(),
		};
		let report;
		try {
			report = await runSpeedToLead(rig);
		} finally {
			await cluster.deactivate(recipeId).catch(() => undefined);
			await cluster.deactivate(assignmentId).catch(() => undefined);
		}
		const perWorker = cluster.workers.map((worker) => cluster.workerExecutionIds(worker).length);
		recordFigure({
			point: '10',
			test: 'speed to lead: passed on after the wait, escalated after the second miss, main restarted',
			figure: `${speedFigure(report)}; executions started per worker (all points so far) ${perWorker.join(', ')}`,
			target: '10 passed on once each, 4 escalated, no lead back to an advisor who let it wait',
		});
		expectSpeedCounts(rig, report);
		for (const delay of report.handOffDelayMs) {
			expect(delay).toBeLessThan(POLL_SECONDS * 1000 + 20_000);
		}
	});
}
