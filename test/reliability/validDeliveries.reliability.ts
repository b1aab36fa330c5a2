// Every genuine delivery, with the retries the service sends when an answer does not reach it:
// the trigger accepts each one (200) and starts exactly one run per event. The service delivers
// over real HTTPS; on the first two attempts of each event n8n is sometimes unreachable (503
// before the node runs) or the node's answer is lost after it ran (so the service retries an
// event the workflow already received).

import type { IDataObject } from 'n8n-workflow';

import {
	startTestSandbox,
	startWebhookReceiver,
	type RunningSandbox,
	type TriggerHarness,
	type WebhookReceiver,
} from '../../harness/engine';
import { seededRandom } from '../../harness/support/random';
import { credentialsOf, scaled, seconds } from './support/common';
import { count, recordFigure } from './support/figures';
import { SecretTrace } from './support/trace';

const ROUNDS = scaled(40, 8);
/** Retries at about 30 ms, 150 ms and 900 ms instead of 1, 5 and 30 minutes. */
const RETRY_SCALE = 0.0005;
const FAULTY_ATTEMPTS = 2;

let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let trigger: TriggerHarness;
const trace = new SecretTrace('validDeliveries.reliability.ts');

beforeAll(async () => {
	sandbox = await startTestSandbox({ retryScale: RETRY_SCALE });
	receiver = await startWebhookReceiver();
	trace.addApiKeys(sandbox);
	trigger = receiver.attachTrigger(
		{ events: ['*'], subscription: 'automatic', options: {} },
		credentialsOf(sandbox),
	);
});

afterAll(async () => {
	await trigger.deactivate();
	await receiver.close();
	await sandbox.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What happens in a dealership in a busy minute: a lead arrives and is scored twice by the AI,
 * an appointment is booked, a conversation reaches two milestones and is handed to a human
 * and closed. In a burst, events about one record often share their millisecond; spaced, each
 * event has a timestamp of its own.
 */
async function busyMinute(round: number, conversationId: string, spacing: number): Promise<void> {
	const control = sandbox.control;
	const steps: Array<(leadId: string) => void> = [
		(leadId) => control.qualifyLead(leadId, 70),
		(leadId) => control.qualifyLead(leadId, 92),
		(leadId) => control.bookAppointment(leadId, { location: 'Showroom Palermo' }),
		() => control.reachMilestone(conversationId, 'budget_identified'),
		() => control.reachMilestone(conversationId, 'test_drive_requested'),
		() => control.changeConversationStatus(conversationId, 'transferred'),
		() => control.changeConversationStatus(conversationId, 'closed'),
	];
	const lead = control.createChannelLead({
		name: `Reliability Lead ${round} — José Ñandú`,
		channel: round % 2 === 0 ? 'chat_app' : 'social_a',
	});
	for (const step of steps) {
		if (spacing > 0) await pause(spacing);
		step(lead.id);
	}
}

interface EventRecord {
	body: string;
	event: string;
	attempts: number;
	ok: boolean;
}

/**
 * Lets the service deliver ROUNDS busy minutes to the trigger while n8n is sometimes
 * unreachable and answers get lost on the first attempts, then counts runs per event.
 */
async function deliverBusyMinutes(label: string, spacing: number, conversationIds: string[]) {
	sandbox.control.clearDeliveries();
	receiver.received.length = 0;
	const random = seededRandom(spacing + 7);
	// Faults only on the first attempts of an event, so every event reaches the node in the end.
	receiver.fault = (attempt) => {
		if (attempt > FAULTY_ATTEMPTS) return undefined;
		const draw = random();
		return draw < 0.2 ? 'unreachable' : draw < 0.4 ? 'answerLost' : undefined;
	};
	const startedAt = Date.now();
	for (let round = 0; round < ROUNDS; round++)
		await busyMinute(round, conversationIds[round], spacing);
	await sandbox.control.whenDeliveriesSettled();
	receiver.fault = () => undefined;
	const elapsed = Date.now() - startedAt;

	const deliveries = sandbox.control.deliveries();
	const events = new Map<string, EventRecord>();
	for (const attempt of deliveries) {
		const entry = events.get(attempt.deliveryId) ?? {
			body: attempt.body,
			event: attempt.event,
			attempts: 0,
			ok: false,
		};
		entry.attempts++;
		entry.ok ||= attempt.ok;
		events.set(attempt.deliveryId, entry);
	}
	const reached = receiver.received.filter((request) => request.result !== undefined);
	for (const request of reached) trace.addDelivery(`${label} delivery`, request.result!);
	const acceptedByNode = reached.filter((request) => request.result!.statusCode === 200).length;
	const runsPerBody = new Map<string, number>();
	for (const request of reached) {
		const runs = request.result!.runs.length;
		if (runs > 0) {
			const body = request.body.toString('utf8');
			runsPerBody.set(body, (runsPerBody.get(body) ?? 0) + runs);
		}
	}
	const eventList = [...events.values()];
	const withoutRun = eventList.filter((event) => (runsPerBody.get(event.body) ?? 0) === 0);
	const twice = eventList.filter((event) => (runsPerBody.get(event.body) ?? 0) > 1);
	const retried = eventList.filter((event) => event.attempts > 1).length;
	const lostAnswers = receiver.received.filter(
		(request) => request.result !== undefined && request.answered === undefined,
	).length;
	const refused = receiver.received.filter((request) => request.result === undefined).length;
	const missedKinds = [...new Set(withoutRun.map((event) => event.event))];
	// Distinct events that share event name, data.id and timestamp with an earlier one.
	const keys = new Map<string, number>();
	for (const event of eventList) {
		const payload = JSON.parse(event.body) as IDataObject;
		const key = `${String(payload.event)}|${String((payload.data as IDataObject).id)}|${String(payload.timestamp)}`;
		keys.set(key, (keys.get(key) ?? 0) + 1);
	}
	const sharingKey = [...keys.values()].reduce((sum, n) => sum + n - 1, 0);
	const example = withoutRun[0] ? (JSON.parse(withoutRun[0].body) as IDataObject) : undefined;

	recordFigure({
		id: 'validDeliveries',
		source: label,
		pass:
			acceptedByNode === reached.length &&
			withoutRun.length === 0 &&
			twice.length === 0 &&
			eventList.every((event) => event.ok),
		measured:
			`${count(eventList.length)} events, ${count(deliveries.length)} delivery attempts ` +
			`(${retried} events retried: ${refused} attempts refused before n8n, ${lostAnswers} answers lost after the node ran); ` +
			`${acceptedByNode}/${reached.length} deliveries reaching the node answered 200; ` +
			`events with exactly one run: ${eventList.length - withoutRun.length - twice.length}/${eventList.length}, ` +
			`with none: ${withoutRun.length}${missedKinds.length ? ` (${missedKinds.join(', ')})` : ''}, with two or more: ${twice.length}; ` +
			`${seconds(elapsed)}` +
			(example
				? `; ${sharingKey} events share event, data.id and timestamp with an earlier, different event ` +
					`(e.g. ${String(example.event)} ${JSON.stringify(example.data)} at ${String(example.timestamp)}) and were taken for its duplicates`
				: ''),
	});
	return { eventList, retried, lostAnswers, acceptedByNode, reached, twice, withoutRun };
}

function openConversations(): string[] {
	const ids = sandbox.control
		.state()
		.conversations.filter((c) => c.organization_id === 'org_alpha' && c.status === 'open')
		.map((c) => c.id);
	expect(ids.length).toBeGreaterThanOrEqual(ROUNDS);
	return ids;
}

it.each([
	['events spaced in time', 3],
	['events in bursts', 0],
])(
	'%s: every genuine delivery is accepted and starts exactly one run per event, retries included',
	async (label, spacing) => {
		// A fresh service: the trigger finds its stored subscription gone and subscribes again.
		sandbox.control.reset();
		await trigger.activate();
		trace.addSecret(String(trigger.staticData.signingSecret), 'the signing secret');
		const outcome = await deliverBusyMinutes(label, spacing, openConversations());

		expect(outcome.eventList.length).toBe(ROUNDS * 8);
		expect(outcome.retried).toBeGreaterThan(0);
		expect(outcome.lostAnswers).toBeGreaterThan(0);
		expect(outcome.eventList.filter((event) => !event.ok)).toEqual([]);
		expect(outcome.acceptedByNode).toBe(outcome.reached.length);
		expect(outcome.twice.map((event) => event.body)).toEqual([]);
		expect(outcome.withoutRun.map((event) => event.body)).toEqual([]);
	},
);

it('shows neither the API keys nor the signing secret in any answer, run item or log line of this file', () => {
	expect(trace.scan()).toEqual([]);
});
