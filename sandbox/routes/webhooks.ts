import { randomBytes } from 'crypto';
import { WEBHOOK_ALL_EVENTS, WEBHOOK_EVENTS } from '../constants';
import { invalidField, notFound } from '../errors';
import { iso } from '../time';
import type { WebhookRecord } from '../types';
import { has, optionalString, requiredString, requireObject } from '../validation';
import { webhookCreatedView, webhookView } from '../views';
import { ok, pathRecord, route, type Route, type RouteContext } from './route';

const KNOWN_EVENTS: readonly string[] = [...WEBHOOK_EVENTS, WEBHOOK_ALL_EVENTS];

function findWebhook(context: RouteContext): WebhookRecord {
	return pathRecord(
		context,
		(store, orgId, id) => store.webhookOf(orgId, id),
		(id) => notFound(`Webhook subscription ${id} not found`),
	);
}

function parseUrl(raw: string, allowHttp: boolean): string {
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw invalidField('url', 'must be an absolute https:// URL');
	}
	const allowed = allowHttp ? ['https:', 'http:'] : ['https:'];
	if (!allowed.includes(url.protocol) || !url.hostname) {
		throw invalidField(
			'url',
			allowHttp ? 'must be an https:// or http:// URL' : 'must be an https:// URL',
		);
	}
	return raw;
}

function parseEvents(body: Record<string, unknown>): string[] {
	if (!has(body, 'events') || body.events === null) throw invalidField('events', 'is required');
	const events = body.events;
	if (!Array.isArray(events)) throw invalidField('events', 'must be an array of event names');
	if (events.length === 0) throw invalidField('events', 'must name at least one event');
	for (const event of events) {
		if (typeof event !== 'string' || !KNOWN_EVENTS.includes(event)) {
			throw invalidField(
				'events',
				`unknown event ${JSON.stringify(event)}; known: ${KNOWN_EVENTS.join(', ')}`,
			);
		}
	}
	return [...new Set(events as string[])];
}

export const webhookRoutes: Route[] = [
	route('POST', '/webhooks', (context) => {
		const body = requireObject(context.body);
		const url = parseUrl(requiredString(body, 'url'), context.core.options.allowHttpWebhooks);
		const events = parseEvents(body);
		const description = optionalString(body, 'description') ?? null;
		const webhook: WebhookRecord = {
			id: context.core.newId('wh_', (id) => context.core.store.webhooks.has(id)),
			organization_id: context.org.id,
			url,
			events,
			description,
			// Shown once, in this response.
			secret: randomBytes(32).toString('hex'),
			created_at: iso(context.core.clock.now()),
		};
		context.core.store.addWebhook(webhook);
		return { status: 201, body: webhookCreatedView(webhook) };
	}),
	route('GET', '/webhooks/{id}', (context) => ok(webhookView(findWebhook(context)))),
	route('DELETE', '/webhooks/{id}', (context) => {
		context.core.store.deleteWebhook(findWebhook(context));
		return { status: 204 };
	}),
];
