// Conditions checked before a run starts, and Fetch Current Lead.

import type { IDataObject } from 'n8n-workflow';

import { FETCH_BUDGET_MS } from '../../../nodes/LeadConversationsTrigger/delivery/currentLead';
import { FLAT_LEAD_COLUMNS, flattenLead } from '../../../nodes/shared/flatLead';
import { useScaledWaits } from '../clock';
import { T0, useDeliverySetup } from './deliverySetup';
import {
	SIGNATURE,
	eventBody,
	hmacHex,
	signedHeaders,
	storedSecret,
	triggerParameters,
} from './fixtures';

const setup = useDeliverySetup();
const { activeTrigger, deliver, settled } = setup;

describe('conditions checked before a run starts', () => {
	it('run only for lead events that meet them; other events pass', async () => {
		await activeTrigger(
			triggerParameters({
				events: ['lead.qualified', 'appointment.booked'],
				options: { minimumScore: 80, channels: ['chat_app', 'social_a'] },
			}),
		);
		const hot = setup.sandbox.control.createChannelLead({ channel: 'chat_app' });
		const lukewarm = setup.sandbox.control.createChannelLead({ channel: 'chat_app' });
		const otherChannel = setup.sandbox.control.createChannelLead({ channel: 'email' });

		setup.sandbox.control.qualifyLead(hot.id, 85);
		setup.sandbox.control.qualifyLead(lukewarm.id, 60);
		setup.sandbox.control.qualifyLead(otherChannel.id, 95);
		setup.sandbox.control.bookAppointment(lukewarm.id);
		await settled();

		expect(setup.sandbox.control.deliveries().every((entry) => entry.status === 200)).toBe(true);
		// Which lead each run is about: lead events carry it in data.id, appointments in data.lead_id.
		const started = setup.receiver.runs.map((run) => {
			const { event, data } = run[0].json as { event: string; data: IDataObject };
			return `${event} ${String(data.lead_id ?? data.id)}`;
		});
		expect(started.sort()).toEqual([
			`appointment.booked ${lukewarm.id}`,
			`lead.qualified ${hot.id}`,
		]);
	});

	it.each([
		['intent', { intents: ['browsing'] }, { intent: 'purchase_30_days' }, false],
		['intent', { intents: ['purchase_30_days'] }, { intent: 'purchase_30_days' }, true],
		['status', { statuses: ['new', 'in_conversation'] }, { status: 'qualified' }, false],
		['status', { statuses: ['qualified'] }, { status: 'qualified' }, true],
	])('by %s: %j on %j runs: %s', async (_field, conditions, data, runs) => {
		const harness = await activeTrigger(triggerParameters({ options: conditions }));
		const body = eventBody('lead.qualified', {
			id: 'lead_13',
			score: 50,
			channel: 'phone',
			...data,
		});
		const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));
		expect(result.statusCode).toBe(200);
		expect(result.runs).toHaveLength(runs ? 1 : 0);
	});
});

describe('Fetch Current Lead', () => {
	it("adds the lead's values of now, read with one GET, next to the event-time ones", async () => {
		await activeTrigger(triggerParameters({ options: { fetchCurrentLead: true } }));
		const lead = setup.sandbox.control.createChannelLead({ channel: 'chat_app' });
		// n8n is unreachable for the first attempt; meanwhile an advisor takes the lead.
		setup.receiver.failNext('unreachable', 1);
		setup.sandbox.control.qualifyLead(lead.id, 92);
		const patched = await fetch(`${setup.sandbox.baseUrl}/leads/${lead.id}`, {
			method: 'PATCH',
			headers: { 'X-API-Key': setup.sandbox.keys.full, 'Content-Type': 'application/json' },
			body: JSON.stringify({ assigned_to: 'user_advisor_7', status: 'assigned' }),
		});
		expect(patched.status).toBe(200);
		setup.sandbox.control.clearRequests();
		await settled();

		expect(setup.receiver.runs).toHaveLength(1);
		const json = setup.receiver.runs[0][0].json as { data: IDataObject; current_lead: IDataObject };
		expect(json.data).toMatchObject({ id: lead.id, status: 'qualified' });
		expect(json.current_lead).toMatchObject({
			id: lead.id,
			status: 'assigned',
			assigned_to: 'user_advisor_7',
			score: 92,
		});
		expect(
			setup.sandbox.control.requests().map((request) => `${request.method} ${request.path}`),
		).toEqual([`GET /v1/leads/${lead.id}`]);
	});

	it('fetches the lead an appointment belongs to', async () => {
		const harness = await activeTrigger(
			triggerParameters({
				events: ['appointment.booked'],
				options: { fetchCurrentLead: true, output: 'data' },
			}),
		);
		const lead = setup.sandbox.control
			.state()
			.leads.find((candidate) => candidate.organization_id === 'org_alpha')!;
		const body = eventBody('appointment.booked', { id: 'appt_1', lead_id: lead.id });
		const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));
		expect(result.runs[0][0].json).toMatchObject({
			id: 'appt_1',
			lead_id: lead.id,
			current_lead: { id: lead.id, name: lead.name },
		});
	});

	it('Output: Current Lead, Flat gives the Flat columns of Get Many and the polling trigger, from the lead as it is now', async () => {
		const harness = await activeTrigger(
			triggerParameters({ options: { output: 'currentLeadFlat' } }),
		);
		const lead = setup.sandbox.control.createChannelLead({ channel: 'web_form' });
		const now = setup.sandbox.control.qualifyLead(lead.id, 88);
		const body = eventBody('lead.qualified', { id: lead.id, score: 10, status: 'new' });
		const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));
		const [row] = result.runs[0];
		expect(Object.keys(row.json)).toEqual([...FLAT_LEAD_COLUMNS]);
		expect(row.json).toEqual(flattenLead(now as unknown as IDataObject));

		const missing = eventBody('lead.qualified', { id: 'lead_does_not_exist' });
		const failed = await deliver(harness, missing, signedHeaders(missing, storedSecret(harness)));
		expect(failed.runs[0][0].json).toMatchObject({
			id: 'lead_does_not_exist',
			current_lead_error: { http_code: '404' },
		});
		expect(Object.keys(failed.runs[0][0].json)).toEqual(['id', 'current_lead_error']);
	});

	it('still runs once when the lead cannot be read, saying why', async () => {
		const harness = await activeTrigger(triggerParameters({ options: { fetchCurrentLead: true } }));
		const body = eventBody('lead.qualified', { id: 'lead_does_not_exist' });

		const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));

		expect(result.statusCode).toBe(200);
		expect(result.runs).toHaveLength(1);
		expect(result.runs[0][0].json).toMatchObject({
			current_lead: null,
			current_lead_error: { http_code: '404' },
		});
		expect(
			harness.logs.some((line) => line.startsWith('warn') && line.includes('lead_does_not_exist')),
		).toBe(true);
	});

	it('does not read anything for a delivery that is refused, filtered or a duplicate', async () => {
		const harness = await activeTrigger(
			triggerParameters({ options: { fetchCurrentLead: true, minimumScore: 50 } }),
		);
		const secret = storedSecret(harness);
		const low = eventBody('lead.qualified', { id: 'lead_14', score: 10 });
		const good = eventBody('lead.qualified', { id: 'lead_15', score: 90 }, T0);
		setup.sandbox.control.clearRequests();

		await deliver(harness, good, { [SIGNATURE]: hmacHex(good, 'wrong') });
		await deliver(harness, low, signedHeaders(low, secret));
		await deliver(harness, good, signedHeaders(good, secret));
		await deliver(harness, good, signedHeaders(good, secret));

		expect(
			setup.sandbox.control.requests().map((request) => `${request.method} ${request.path}`),
		).toEqual(['GET /v1/leads/lead_15']);
	});
});

describe('Fetch Current Lead against a slow service', () => {
	// The node's waits take a quarter of their time (its budget still reads "5 s"); the service's
	// delays are real, so each is set against the budget as it passes now.
	const SCALE = 0.25;
	const BUDGET_MS = FETCH_BUDGET_MS * SCALE;
	useScaledWaits(SCALE);

	it('leaves the answer to n8n, after the read, and gives up the read after its budget so the answer stays well under 10 s', async () => {
		const harness = await activeTrigger(triggerParameters({ options: { fetchCurrentLead: true } }));
		const lead = setup.sandbox.control
			.state()
			.leads.find((candidate) => candidate.organization_id === 'org_alpha')!;
		const secret = storedSecret(harness);
		setup.sandbox.control.injectFaults({
			kind: 'delay',
			delayMs: 1500 * SCALE,
			method: 'GET',
			pathPrefix: '/v1/leads',
		});
		const slow = eventBody('lead.qualified', { id: lead.id, score: 70 });
		const slowResult = await deliver(harness, slow, signedHeaders(slow, secret));
		expect(slowResult.answeredInWebhook).toBe(false);
		expect(slowResult.statusCode).toBe(200);
		expect(slowResult.runs[0][0].json).toMatchObject({ current_lead: { id: lead.id } });

		setup.sandbox.control.clearFaults();
		setup.sandbox.control.injectFaults({
			kind: 'delay',
			delayMs: BUDGET_MS + 2000,
			method: 'GET',
			pathPrefix: '/v1/leads',
		});
		const late = eventBody('lead.qualified', { id: lead.id, score: 71 });
		const startedAt = Date.now();
		const lateResult = await deliver(harness, late, signedHeaders(late, secret));
		const tookMs = Date.now() - startedAt;
		expect(lateResult.statusCode).toBe(200);
		expect(lateResult.runs[0][0].json).toMatchObject({
			current_lead: null,
			current_lead_error: { http_code: null, message: expect.stringContaining('within 5 s') },
		});
		expect(tookMs).toBeGreaterThanOrEqual(BUDGET_MS - 50);
		expect(tookMs).toBeLessThan(BUDGET_MS + 1500);
	});
});

setup.describeNoSecretLeak();
