import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { waitForTriggerStatus } from '../../../harness/real-n8n/executions';
import {
	N8nPublicApi,
	startN8n,
	startN8nWithApi,
	type N8nServer,
} from '../../../harness/real-n8n/n8n-server';
import { waitFor } from '../../../harness/real-n8n/processes';
import {
	importWorkflows,
	prepareUserFolder,
	writeWorkflowFiles,
} from '../../../harness/real-n8n/setup';
import { makeSelfSignedCertificate } from '../../../harness/real-n8n/tls';
import { pollTimesEvery } from '../../../harness/queue/pathWorkflows';
import { assign } from '../../nodes/pollTrigger/notContactedHelpers';
import {
	SHIPPED_TABLES,
	assignmentWorkflow,
	createSpeedTables,
	recipeWorkflow,
} from '../../support/speedToLead';

// A day at the showroom in a real n8n 2.41.1 with both examples as shipped: the reroute example
// counting its 15 minutes in its opening hours (Mon-Fri 09:00-20:00, New York: n8n's default
// zone), the round-robin example with the Polling Trigger its sticky note offers in the webhook's
// place (a webhook delivery stamped hours ahead of n8n's clock is refused as a replay; the
// service's clock runs a day in a minute). Roster in n8n's Data Table: three advisors, their own
// shifts and capacities. 60 leads from 08:00 to 22:00, an hour of the day per step; every third
// lead answered and closed, every third answered, the rest let wait; n8n restarted at night.

const POLL_SECONDS = 2;
const MINUTE = 60_000;
const ZONE = 'America/New_York';
const ROSTER = [
	{ user_id: 'user_ana_lopez', hours: 'Mon-Fri 09:00-15:00', time_zone: ZONE, capacity: 6 },
	{ user_id: 'user_bruno_diaz', hours: 'Mon-Fri 12:00-20:00', capacity: 6 },
	{ user_id: 'user_carla_ruiz', hours: 'Mon-Fri 09:00-20:00', capacity: 8 },
];
const SHIFTS: Record<string, [number, number]> = {
	user_ana_lopez: [9 * 60, 15 * 60],
	user_bruno_diaz: [12 * 60, 20 * 60],
	user_carla_ruiz: [9 * 60, 20 * 60],
};
const CAPACITY: Record<string, number> = {
	user_ana_lopez: 6,
	user_bruno_diaz: 6,
	user_carla_ruiz: 8,
};

const wall = new Intl.DateTimeFormat('en-US', {
	timeZone: ZONE,
	weekday: 'short',
	hour: 'numeric',
	minute: 'numeric',
	hourCycle: 'h23',
});
function localOf(ms: number) {
	const parts = Object.fromEntries(wall.formatToParts(ms).map((p) => [p.type, p.value]));
	const weekday = !['Sat', 'Sun'].includes(parts.weekday);
	return { weekday, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}
const onShift = (advisor: string, ms: number) =>
	localOf(ms).weekday &&
	localOf(ms).minute >= SHIFTS[advisor][0] &&
	localOf(ms).minute < SHIFTS[advisor][1];

let sandbox: RunningSandbox;
let n8n: N8nServer;
let restartN8n: () => Promise<void>;

/** The round-robin example with the Polling Trigger (Lead Reached a Status: Qualified). */
function assignmentByPolling() {
	const workflow = assignmentWorkflow(SHIPPED_TABLES);
	const webhook = workflow.nodes.find((node) => node.type.endsWith('leadConversationsTrigger'));
	const poll = {
		id: 'poll-qualified',
		name: 'Lead qualified (polling)',
		type: 'n8n-nodes-lead-conversations.leadConversationsPollTrigger',
		typeVersion: 1,
		position: webhook.position,
		parameters: {
			pollTimes: pollTimesEvery(POLL_SECONDS),
			event: 'leadStatus',
			statuses: ['qualified'],
		},
		credentials: webhook.credentials,
	};
	workflow.nodes = workflow.nodes.map((node) => (node === webhook ? poll : node));
	const connections = workflow.connections as Record<string, unknown>;
	const { [webhook.name]: outgoing, ...rest } = connections;
	workflow.connections = { [poll.name]: outgoing, ...rest };
	return workflow;
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: 0, seed: 20261129 });
	const userFolder = await prepareUserFolder('opening-hours', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	const recipe = recipeWorkflow(SHIPPED_TABLES, POLL_SECONDS);
	const assignment = assignmentByPolling();
	await importWorkflows(userFolder, writeWorkflowFiles(userFolder, [recipe, assignment]));
	const certificate = await makeSelfSignedCertificate(userFolder);
	const started = await startN8nWithApi({ userFolder, certificate });
	n8n = started.n8n;
	await createSpeedTables(started.api, SHIPPED_TABLES, ROSTER);
	for (const id of [assignment.id, recipe.id]) {
		expect((await started.api.request('POST', `/workflows/${id}/activate`)).status).toBe(200);
		expect((await waitForTriggerStatus(userFolder, id))[0]).toMatchObject({ status: 'activated' });
	}
	restartN8n = async () => {
		await n8n.stop();
		n8n = await startN8n({ userFolder, certificate, port: n8n.port });
		new N8nPublicApi(n8n, started.apiKey);
	};
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

test('60 leads, 08:00-22:00: nothing passed on while closed, none to an advisor off shift or over a cap while another has room, every lead with an advisor; a restart at night changes nothing', async () => {
	const { control } = sandbox;
	const now = () => Date.parse(control.clock().now);
	const polls = (status: string) =>
		control.requests().filter((r) => r.path === '/v1/leads' && r.query.status === status).length;
	const nextPolls = async () => {
		const before = [polls('qualified'), polls('assigned')];
		await waitFor(
			'a poll of each workflow',
			() =>
				polls('qualified') > before[0] + 1 && polls('assigned') > before[1] + 1 ? true : undefined,
			{ timeoutMs: 60_000, intervalMs: 200 },
		);
	};
	const loads = () => {
		const counts: Record<string, number> = {};
		for (const lead of control.state().leads)
			if (lead.status === 'assigned' && lead.assigned_to)
				counts[lead.assigned_to] = (counts[lead.assigned_to] ?? 0) + 1;
		return counts;
	};
	// Every change of advisor, checked on the service's clock as the watcher sees it.
	const changes: Array<{ id: string; advisor: string; at: number; first: boolean }> = [];
	const problems: string[] = [];
	const last = new Map<string, string>();
	const watch = () => {
		const at = now();
		const loadsNow = loads();
		for (const lead of control.state().leads) {
			const advisor = lead.assigned_to;
			if (!advisor || last.get(lead.id) === advisor) continue;
			const first = !last.has(lead.id);
			const seen = changes.filter((c) => c.id === lead.id).map((c) => c.advisor);
			changes.push({ id: lead.id, advisor, at, first });
			last.set(lead.id, advisor);
			const { weekday, minute } = localOf(at);
			if (!first && !(weekday && minute >= 9 * 60 + 15 && minute <= 20 * 60)) {
				problems.push(`${lead.id} passed on at ${wall.format(at)}`);
			}
			const onShiftNow = Object.keys(SHIFTS).filter((a) => !seen.includes(a) && onShift(a, at));
			if (onShiftNow.length > 0 && !onShift(advisor, at)) {
				problems.push(`${lead.id} to ${advisor}, off shift at ${wall.format(at)}`);
			}
			const roomy = onShiftNow.filter((a) => a !== advisor && (loadsNow[a] ?? 0) < CAPACITY[a]);
			if ((loadsNow[advisor] ?? 0) > CAPACITY[advisor] && roomy.length > 0) {
				problems.push(
					`${lead.id} to ${advisor} over its cap at ${wall.format(at)}, ${roomy.join(', ')} had room`,
				);
			}
		}
	};
	const patches = () => control.requests().filter((r) => r.method === 'PATCH').length;
	/** Until no lead has changed for 2.5 s: the runs the polls started are done. */
	const settle = async () => {
		for (let round = 0; round < 12; round++) {
			const before = patches();
			await new Promise((resolve) => setTimeout(resolve, 2500));
			if (patches() === before) return;
		}
	};
	let start = Math.ceil(now() / (15 * MINUTE)) * 15 * MINUTE;
	while (!(localOf(start).weekday && localOf(start).minute === 8 * 60)) start += 15 * MINUTE;
	control.advanceClock(start - now());
	await nextPolls();
	// Each write of a lead answered 150 ms late: n8n makes one assignment with a count at a time,
	// so the watcher sees every write on its own, with the loads it was decided on.
	control.injectFaults({
		kind: 'delay',
		delayMs: 150,
		method: 'PATCH',
		pathPrefix: '/v1/leads',
		probability: 1,
	});
	const watcher = setInterval(watch, 50);
	const leads: string[] = [];
	const answered = new Set<string>();
	try {
		const steps = [
			...Array.from({ length: 15 }, (_, hour) => start + hour * 60 * MINUTE),
			start + 15 * 60 * MINUTE, // 23:00: n8n restarts
			...[0, 15, 30, 60, 90].map((m) => start + (25 * 60 + m) * MINUTE),
		];
		for (const [step, at] of steps.entries()) {
			control.advanceClock(Math.max(0, at - now()));
			if (step === 15) await restartN8n();
			for (const [index, id] of leads.entries()) {
				const lead = control.state().leads.find((l) => l.id === id)!;
				if (index % 3 === 2 || lead.status !== 'assigned' || answered.has(id)) continue;
				const conversation = control.state().conversations.find((c) => c.lead_id === id)!;
				control.addMessage(conversation.id, { sent_by: 'human', content: 'Advisor here' });
				answered.add(id);
				if (index % 3 === 0) await assign(sandbox, id, lead.assigned_to!, 'closed');
			}
			const arriving = step < 15 ? 4 : 0;
			for (let i = 0; i < arriving && leads.length < 60; i++) {
				const lead = control.createChannelLead({ channel: 'chat_app', vehicle_interest: 'Sedan' });
				control.leadWrites(lead.id);
				control.qualifyLead(lead.id, 85);
				leads.push(lead.id);
			}
			await nextPolls();
			await settle();
			watch();
		}
	} finally {
		clearInterval(watcher);
		control.clearFaults();
	}
	expect(leads).toHaveLength(60);
	expect(problems).toEqual([]);
	const handOffs = changes.filter((c) => !c.first);
	expect(handOffs.length).toBeGreaterThan(5);
	expect(handOffs.some((c) => c.at > start + 24 * 60 * MINUTE)).toBe(true);
	const state = new Map(control.state().leads.map((lead) => [lead.id, lead]));
	expect(leads.filter((id) => !state.get(id)!.assigned_to)).toEqual([]);
}, 600_000);
