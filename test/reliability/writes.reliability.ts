// Writes when the answer is lost: Create Lead and Send Message while the service answers after
// the node's time-out, drops the connection after it stored the record, drops it before, or
// answers 503. A POST that may have been processed must never be sent again (that is how
// duplicates are made); the item says the outcome is unknown instead.

import type { IDataObject } from 'n8n-workflow';

import {
	runActionNode,
	startTestSandbox,
	type RunResult,
	type RunningSandbox,
} from '../../harness/engine';
import { REQUEST_TIMEOUT_MS } from '../../nodes/shared/transport';
import { NODE, byId, credentialsOf, scaled, seconds } from './support/common';
import { recordFigure } from './support/figures';
import { SecretTrace } from './support/trace';

const ITEMS = scaled(40, 10);
const NAME_PREFIX = 'Reliability Write';
/** The words of the node's item when a POST may have been processed but no answer came. */
const OUTCOME_UNKNOWN = /may have been processed/i;

let sandbox: RunningSandbox;
const trace = new SecretTrace('writes.reliability.ts');

beforeAll(async () => {
	sandbox = await startTestSandbox({ rateLimit: 1_000_000 });
	trace.addApiKeys(sandbox);
});

afterAll(async () => {
	await sandbox.close();
});

/** One slow answer past the node's time-out, then random losses before and after processing. */
function injectWriteFaults(pathPrefix: string): void {
	const faults = sandbox.control;
	faults.injectFaults({
		kind: 'delay',
		delayMs: REQUEST_TIMEOUT_MS + 1_500,
		count: 1,
		method: 'POST',
		pathPrefix,
	});
	faults.injectFaults({
		kind: 'dropAfterProcessing',
		probability: 0.15,
		method: 'POST',
		pathPrefix,
	});
	faults.injectFaults({ kind: 'drop', probability: 0.05, method: 'POST', pathPrefix });
	faults.injectFaults({
		kind: 'status',
		status: 503,
		probability: 0.05,
		method: 'POST',
		pathPrefix,
	});
}

type ItemOutcome = 'reported' | 'unknown' | 'refused';

function outcomeOf(json: IDataObject): ItemOutcome {
	if (json.error === undefined) return 'reported';
	return OUTCOME_UNKNOWN.test(`${String(json.error)} ${String(json.description ?? '')}`)
		? 'unknown'
		: 'refused';
}

interface WriteFigure {
	onService: number;
	reported: number;
	unknownStored: number;
	unknownNotStored: number;
	refused: number;
	duplicates: number;
	unaccounted: number;
	posts: number;
	slowest: number;
}

function describe_(what: string, figure: WriteFigure): string {
	return (
		`${what}: ${figure.onService} on the service = ${figure.reported} reported created + ` +
		`${figure.unknownStored} reported "may have been processed, not resent" that were stored ` +
		`(${figure.unknownNotStored} such items were not stored; ${figure.refused} refused with an error, none stored); ` +
		`duplicates ${figure.duplicates}; unaccounted ${figure.unaccounted}; ${figure.posts} POSTs for ${ITEMS} items`
	);
}

/**
 * Matches each input item with what the service stored for it: a reported record must be
 * stored exactly once under the reported ID, an item of unknown outcome at most once, a
 * refused item never, and nothing may be stored that no item accounts for.
 */
function reconcile(
	result: RunResult,
	storedFor: (index: number) => Array<{ id: string }>,
	storedTotal: number,
	posts: number,
): { figure: WriteFigure; problems: string[] } {
	const items = result.output(NODE);
	const problems: string[] = [];
	const figure: WriteFigure = {
		onService: storedTotal,
		reported: 0,
		unknownStored: 0,
		unknownNotStored: 0,
		refused: 0,
		duplicates: 0,
		unaccounted: storedTotal,
		posts,
		slowest: 0,
	};
	if (items.length !== ITEMS) problems.push(`${items.length} output items for ${ITEMS} inputs`);
	for (const item of items) {
		const index = (item.pairedItem as { item: number }).item;
		const stored = storedFor(index);
		if (stored.length > 1) figure.duplicates += stored.length - 1;
		figure.unaccounted -= Math.min(stored.length, 1);
		const outcome = outcomeOf(item.json);
		if (outcome === 'reported') {
			figure.reported++;
			if (stored.length !== 1 || stored[0].id !== item.json.id) {
				problems.push(
					`item ${index} reported ${String(item.json.id)}, the service has ${stored.length}`,
				);
			}
		} else if (outcome === 'unknown') {
			if (stored.length > 0) figure.unknownStored++;
			else figure.unknownNotStored++;
		} else {
			figure.refused++;
			if (stored.length > 0) problems.push(`item ${index} was refused but is stored`);
		}
	}
	return { figure, problems };
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
	const startedAt = Date.now();
	const value = await run();
	return [value, Date.now() - startedAt];
}

it('Create Lead and Send Message: what the service stored is what the node reported, never twice, never resent', async () => {
	sandbox.control.reset();
	const openConversations = sandbox.control
		.state()
		.conversations.filter(
			(conversation) =>
				conversation.organization_id === 'org_alpha' &&
				conversation.status === 'open' &&
				conversation.channel !== 'phone',
		);
	expect(openConversations.length).toBeGreaterThan(0);
	const leadInputs = Array.from({ length: ITEMS }, (_, index) => ({
		name: `${NAME_PREFIX} ${index}`,
		phone: `+3491${String(7_000_000 + index)}`,
	}));
	const messageInputs = Array.from({ length: ITEMS }, (_, index) => ({
		conversation: openConversations[index % openConversations.length].id,
		content: `Reliability message ${index}: we have the Hilux in stock, shall I book a test drive?`,
	}));
	injectWriteFaults('/v1/leads');
	injectWriteFaults('/v1/conversations');

	// Both run at once, so the one time-out of each costs the suite a single wait.
	const [[creates, createMs], [messages, messageMs]] = await Promise.all([
		timed(() =>
			runActionNode(
				{
					resource: 'lead',
					operation: 'create',
					name: '={{ $json.name }}',
					phone: '={{ $json.phone }}',
					channel: 'api',
					additionalFields: {},
				},
				credentialsOf(sandbox),
				{ inputItems: leadInputs, continueOnFail: true },
			),
		),
		timed(() =>
			runActionNode(
				{
					resource: 'conversation',
					operation: 'sendMessage',
					conversation: byId('={{ $json.conversation }}'),
					type: 'text',
					content: '={{ $json.content }}',
					pauseAi: false,
				},
				credentialsOf(sandbox),
				{ inputItems: messageInputs, continueOnFail: true },
			),
		),
	]);
	sandbox.control.clearFaults();
	trace.addRun('create leads under faults', creates);
	trace.addRun('send messages under faults', messages);

	const state = sandbox.control.state();
	const storedLeads = state.leads.filter((lead) => lead.name.startsWith(NAME_PREFIX));
	const leadsOf = (index: number) =>
		storedLeads.filter((lead) => lead.phone === leadInputs[index].phone);
	const storedMessages = state.conversations.flatMap((conversation) =>
		conversation.messages.filter((message) => message.content.startsWith('Reliability message ')),
	);
	const messagesOf = (index: number) =>
		storedMessages.filter((message) => message.content === messageInputs[index].content);
	const requests = sandbox.control.requests();
	const leadPosts = requests.filter((r) => r.method === 'POST' && r.path === '/v1/leads').length;
	const messagePosts = requests.filter(
		(r) => r.method === 'POST' && r.path.startsWith('/v1/conversations/'),
	).length;

	const leads = reconcile(creates, leadsOf, storedLeads.length, leadPosts);
	const sent = reconcile(messages, messagesOf, storedMessages.length, messagePosts);
	leads.figure.slowest = createMs;
	sent.figure.slowest = messageMs;
	const timedOutItems = [creates, messages].map(
		(result) =>
			result
				.output(NODE)
				.filter((item) => /did not answer in time/.test(String(item.json.error ?? ''))).length,
	);

	const pass =
		leads.problems.length === 0 &&
		sent.problems.length === 0 &&
		leads.figure.duplicates + sent.figure.duplicates === 0 &&
		leads.figure.unaccounted + sent.figure.unaccounted === 0 &&
		leadPosts === ITEMS &&
		messagePosts === ITEMS &&
		timedOutItems.every((n) => n === 1);
	recordFigure({
		id: 'writesUnderFaults',
		pass,
		measured:
			`${describe_('leads', leads.figure)}; ${describe_('messages', sent.figure)}; ` +
			`time-outs after ${seconds(REQUEST_TIMEOUT_MS)}: ${timedOutItems.join(' + ')} item(s), reported as unknown outcome` +
			(leads.problems.length + sent.problems.length > 0
				? `; problems: ${[...leads.problems, ...sent.problems].join(', ')}`
				: ''),
	});

	expect(creates.status).toBe('success');
	expect(messages.status).toBe('success');
	expect(leads.problems).toEqual([]);
	expect(sent.problems).toEqual([]);
	expect(leads.figure.duplicates).toBe(0);
	expect(sent.figure.duplicates).toBe(0);
	expect(leads.figure.unaccounted).toBe(0);
	expect(sent.figure.unaccounted).toBe(0);
	// Every item's POST was sent exactly once: nothing that may have been processed was resent.
	expect(leadPosts).toBe(ITEMS);
	expect(messagePosts).toBe(ITEMS);
	// The slow answer really ran into the time-out and was reported as an unknown outcome.
	expect(timedOutItems).toEqual([1, 1]);
	// The faults really happened: some stored records got no answer.
	expect(leads.figure.unknownStored).toBeGreaterThan(0);
	expect(sent.figure.unknownStored).toBeGreaterThan(0);
});

it('shows the API keys in no output item, error or log line of this file', () => {
	expect(trace.scan()).toEqual([]);
});
