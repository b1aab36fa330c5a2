import { NodeOperationError, type INode } from 'n8n-workflow';

import {
	dataOf,
	leadIdOf,
	outputJson,
	parseEventPayload,
} from '../../../nodes/shared/events/payload';
import { isSubscribed, subscribedEvents } from '../../../nodes/shared/events/eventNames';
import {
	assertHttpsWebhookUrl,
	readSigningSecret,
	readSubscriptionPage,
	sameEvents,
} from '../../../nodes/LeadConversationsTrigger/subscription/rules';

const node = { name: 'Lead Conversations Trigger' } as INode;

describe('subscribedEvents: the event names sent to POST /webhooks', () => {
	it('takes the chosen names plus the typed ones, each once', () => {
		expect(
			subscribedEvents(['lead.qualified'], ' lead.updated, lead.qualified ,conversation.closed'),
		).toEqual(['lead.qualified', 'lead.updated', 'conversation.closed']);
	});

	it('lets "All events" win over any other choice', () => {
		expect(subscribedEvents(['lead.created', '*'], 'custom.event')).toEqual(['*']);
	});

	it('is empty when nothing is chosen or typed', () => {
		expect(subscribedEvents([], ' , ')).toEqual([]);
	});
});

describe('isSubscribed and sameEvents', () => {
	it('accepts any event under "*", otherwise only listed ones', () => {
		expect(isSubscribed(['*'], 'anything.at_all')).toBe(true);
		expect(isSubscribed(['lead.qualified'], 'lead.qualified')).toBe(true);
		expect(isSubscribed(['lead.qualified'], 'lead.created')).toBe(false);
	});

	it('compares event lists regardless of order', () => {
		expect(sameEvents(['a', 'b'], ['b', 'a'])).toBe(true);
		expect(sameEvents(['a'], ['a', 'b'])).toBe(false);
		expect(sameEvents(undefined, ['a'])).toBe(false);
	});
});

describe('readSigningSecret: tolerant reading of the creation response', () => {
	it.each([
		[{ id: 'wh_1', secret: 's1' }, 's1'],
		[{ id: 'wh_1', signing_secret: 's2' }, 's2'],
		[{ id: 'wh_1', signingSecret: 's3' }, 's3'],
		[{ id: 'wh_1', secret: 's1', signing_secret: 's2' }, 's1'],
		[{ id: 'wh_1', secret: '' }, undefined],
		[{ id: 'wh_1' }, undefined],
	])('%j → %s', (created, expected) => {
		expect(readSigningSecret(created)).toBe(expected);
	});
});

describe('assertHttpsWebhookUrl', () => {
	it('passes an https:// URL through', () => {
		expect(assertHttpsWebhookUrl(node, 'https://n8n.example.com/webhook/x/webhook')).toBe(
			'https://n8n.example.com/webhook/x/webhook',
		);
	});

	it.each(['http://localhost:5678/webhook/x/webhook', undefined])(
		'refuses %s with a message naming the fix',
		(url) => {
			let thrown: unknown;
			try {
				assertHttpsWebhookUrl(node, url);
			} catch (error) {
				thrown = error;
			}
			expect(thrown).toBeInstanceOf(NodeOperationError);
			const { message, description } = thrown as NodeOperationError;
			expect(message).toContain('https://');
			expect(description).toContain('WEBHOOK_URL');
			expect(description).toContain('tunnel');
			expect(description).toContain('N8N_PROXY_HOPS');
		},
	);
});

describe('parseEventPayload and output shapes', () => {
	const payload = {
		event: 'appointment.booked',
		timestamp: 't',
		organization_id: 'org_alpha',
		data: { id: 'appt_1', lead_id: 'lead_7' },
	};

	it('parses a JSON object with an event name', () => {
		expect(parseEventPayload(Buffer.from(JSON.stringify(payload)))).toEqual(payload);
	});

	it.each(['{not json', '[]', 'null', '"text"', '{"data":{}}', '{"event":""}', '{"event":3}'])(
		'refuses %s',
		(text) => {
			expect(parseEventPayload(Buffer.from(text))).toBeUndefined();
		},
	);

	it('finds the lead of lead events in data.id and of other events in data.lead_id', () => {
		expect(leadIdOf(payload)).toBe('lead_7');
		expect(leadIdOf({ event: 'lead.assigned', data: { id: 'lead_3' } })).toBe('lead_3');
		expect(leadIdOf({ event: 'conversation.milestone', data: { id: 'conv_1' } })).toBeUndefined();
	});

	it('outputs the whole payload or only data, with extra fields added', () => {
		expect(outputJson(payload, 'payload')).toEqual(payload);
		expect(outputJson(payload, 'data', { current_lead: null })).toEqual({
			id: 'appt_1',
			lead_id: 'lead_7',
			current_lead: null,
		});
		expect(dataOf({ event: 'x', data: 'not an object' })).toEqual({});
	});
});

describe('readSubscriptionPage: a listing the specification does not show', () => {
	const records = [
		{ id: 'wh_1', url: 'https://a.example/webhook/x/webhook', events: ['*'] },
		{ id: 'wh_2', url: 'https://a.example/webhook/y/webhook' },
	];
	const expected = [
		{ id: 'wh_1', url: 'https://a.example/webhook/x/webhook' },
		{ id: 'wh_2', url: 'https://a.example/webhook/y/webhook' },
	];

	it('reads a bare array and { data: [...] }', () => {
		expect(readSubscriptionPage(records)).toEqual({ subscriptions: expected });
		expect(readSubscriptionPage({ data: records })).toEqual({ subscriptions: expected });
	});

	it('follows next_cursor only while has_more is true, in pagination or at the top', () => {
		expect(
			readSubscriptionPage({ data: records, pagination: { has_more: true, next_cursor: 'c2' } }),
		).toEqual({ subscriptions: expected, nextCursor: 'c2' });
		expect(readSubscriptionPage({ data: records, has_more: true, next_cursor: 'c3' })).toEqual({
			subscriptions: expected,
			nextCursor: 'c3',
		});
		expect(
			readSubscriptionPage({ data: records, pagination: { has_more: false, next_cursor: 'c2' } }),
		).toEqual({ subscriptions: expected });
	});

	it('skips records without a string id and url', () => {
		expect(
			readSubscriptionPage([null, 'wh_3', { id: 4, url: 'u' }, { id: 'wh_5' }, records[0]]),
		).toEqual({ subscriptions: [expected[0]] });
	});

	it.each([[undefined], [''], [{}], [{ data: 'none' }], [{ webhooks: records }]])(
		'is undefined for an answer that is no list: %j',
		(body) => {
			expect(readSubscriptionPage(body)).toBeUndefined();
		},
	);
});
