// The HTTP face of the control interface (`/control/...`): each route maps onto one call of the
// in-process control. JSON in, JSON out, no API key, loopback clients only.

import type { IncomingMessage, ServerResponse } from 'http';

import type { ChannelLeadFields, FaultSpec, RuntimeOptions, SandboxControl } from './contract';
import { ControlError } from './control';
import type { SandboxCore } from './core';
import { isLoopback, readBody, writeJson } from './http-util';

type Handler = (input: {
	body: Record<string, unknown>;
	params: string[];
	query: URLSearchParams;
}) => unknown | Promise<unknown>;

interface ControlRoute {
	method: string;
	/** Below /control; `{id}` stands for one path segment, handed to the handler in `params`. */
	path: string;
	pattern: RegExp;
	/** Shown by GET /control. */
	summary: string;
	handle: Handler;
}

function route(method: string, path: string, summary: string, handle: Handler): ControlRoute {
	const pattern = new RegExp(`^${path.replace(/\{id\}/g, '([^/]+)')}$`);
	return { method, path, pattern, summary, handle };
}

function controlRoutes(core: SandboxCore, control: SandboxControl): ControlRoute[] {
	return [
		route('GET', '/keys', 'API keys by role', () => control.keys()),
		route(
			'POST',
			'/reset',
			'{leads?, seed?}: reseed, clear logs, subscriptions, faults, counters',
			({ body }) => control.reset(body as { leads?: number; seed?: number }),
		),
		route('GET', '/rate-limit', 'current {limit, windowMs}', () => core.rateLimiter.settings),
		route('POST', '/rate-limit', '{limit, windowMs}', ({ body }) =>
			control.setRateLimit(body.limit as number, body.windowMs as number),
		),
		route('GET', '/options', 'current options', () => control.options()),
		route('POST', '/options', '{retryScale?, allowHttpWebhooks?, deliveryTimeoutMs?}', ({ body }) =>
			control.setOptions(body as RuntimeOptions),
		),
		route('POST', '/keys/revoke', '{key}', ({ body }) => control.revokeKey(body.key as string)),
		route('GET', '/faults', 'active faults', () => control.faults()),
		route('POST', '/faults', 'FaultSpec or an array of them', ({ body }) => {
			const specs = Array.isArray(body) ? body : [body];
			for (const spec of specs) control.injectFaults(spec as unknown as FaultSpec);
		}),
		route('DELETE', '/faults', 'clear faults', () => control.clearFaults()),
		route('GET', '/requests', 'request log', () => control.requests()),
		route('DELETE', '/requests', 'clear the request log', () => control.clearRequests()),
		route('GET', '/deliveries', 'delivery log', () => control.deliveries()),
		route('DELETE', '/deliveries', 'clear the delivery log', () => control.clearDeliveries()),
		route(
			'GET',
			'/deliveries/settled',
			'answers once no delivery is in flight or scheduled',
			async () => {
				await control.whenDeliveriesSettled();
				return { settled: true };
			},
		),
		route('GET', '/webhooks', 'all subscriptions with secrets', () => control.webhooks()),
		route(
			'POST',
			'/webhooks/{id}/deliver-raw',
			'{body, encoding?: "utf8"|"base64", headers?}: one unretried delivery',
			({ body, params }) => {
				if (typeof body.body !== 'string') throw new ControlError('body: must be a string');
				const bytes = Buffer.from(body.body, body.encoding === 'base64' ? 'base64' : 'utf8');
				return control.deliverRaw(
					params[0],
					bytes,
					body.headers as Record<string, string> | undefined,
				);
			},
		),
		route('GET', '/state', 'all stored data', () => control.state()),
		route('GET', '/clock', "the service's time {now, offsetMs}", () => control.clock()),
		route(
			'POST',
			'/clock/advance',
			"{ms}: move the service's clock forward (Date header and every time written)",
			({ body }) => control.advanceClock(body.ms as number),
		),
		route(
			'POST',
			'/leads/{id}/qualify',
			'{score?}: AI qualifies the lead (lead.qualified)',
			({ body, params }) => control.qualifyLead(params[0], body.score as number | undefined),
		),
		route(
			'POST',
			'/leads/{id}/appointments',
			'{scheduled_at?, location?}: book an appointment (appointment.booked)',
			({ body, params }) =>
				control.bookAppointment(params[0], body as { scheduled_at?: string; location?: string }),
		),
		route(
			'POST',
			'/conversations/{id}/milestones',
			'{milestone} (conversation.milestone)',
			({ body, params }) => control.reachMilestone(params[0], body.milestone as string),
		),
		route(
			'POST',
			'/conversations/{id}/status',
			'{status} (conversation.status_changed)',
			({ body, params }) => control.changeConversationStatus(params[0], body.status as string),
		),
		route(
			'POST',
			'/leads/{id}/writes',
			'{channel?, content?}: the lead writes; its open conversation on that channel, or a new one',
			({ body, params }) =>
				control.leadWrites(params[0], body as { channel?: string; content?: string }),
		),
		route(
			'POST',
			'/conversations/{id}/messages',
			'{sent_by, content?}: a message from the AI, the lead or a human, dated now',
			({ body, params }) =>
				control.addMessage(params[0], body as { sent_by: string; content?: string }),
		),
		route(
			'POST',
			'/channel-leads',
			'lead fields: a lead arriving from a channel (lead.created)',
			({ body }) => control.createChannelLead(body as ChannelLeadFields),
		),
	];
}

/** The JSON body of a POST or PATCH to the control interface; an empty body is `{}`. */
async function controlBody(req: IncomingMessage, method: string): Promise<Record<string, unknown>> {
	if (method !== 'POST' && method !== 'PATCH') return {};
	const raw = await readBody(req, 16 * 1024 * 1024);
	if (raw.tooLarge) throw new ControlError('body: too large', 413);
	if (raw.text.trim() === '') return {};
	let body: unknown;
	try {
		body = JSON.parse(raw.text);
	} catch {
		throw new ControlError('body: invalid JSON');
	}
	if (typeof body !== 'object' || body === null) throw new ControlError('body: must be JSON');
	return body as Record<string, unknown>;
}

function errorName(status: number): string {
	if (status === 404) return 'not_found';
	return status === 500 ? 'internal_error' : 'invalid_request';
}

/**
 * The HTTP control interface. Answers 200 with a JSON result (204 when there is nothing to say),
 * 400/404 with `{error, message}` when the call cannot be carried out.
 */
export function createControlHttp(core: SandboxCore, control: SandboxControl) {
	const routes = controlRoutes(core, control);
	const listing = [{ method: 'GET', path: '/control', summary: 'this list' }].concat(
		routes.map(({ method, path, summary }) => ({ method, path: `/control${path}`, summary })),
	);
	routes.unshift(route('GET', '', 'this list', () => ({ routes: listing })));

	return async (
		req: IncomingMessage,
		res: ServerResponse,
		method: string,
		path: string,
		url: URL,
	) => {
		if (!isLoopback(req.socket.remoteAddress)) {
			return writeJson(res, 403, {
				error: 'forbidden',
				message: 'The control interface answers loopback clients only',
			});
		}
		const subPath = path.slice('/control'.length);
		const candidates = routes.filter((candidate) => candidate.pattern.test(subPath));
		const found = candidates.find((candidate) => candidate.method === method);
		if (!found) {
			return candidates.length === 0
				? writeJson(res, 404, { error: 'not_found', message: `No control route ${path}` })
				: writeJson(res, 405, {
						error: 'method_not_allowed',
						message: `Use ${candidates.map((c) => c.method).join(', ')}`,
					});
		}
		try {
			const body = await controlBody(req, method);
			const params = (found.pattern.exec(subPath) ?? []).slice(1).map(decodeURIComponent);
			const result = await found.handle({ body, params, query: url.searchParams });
			// Dated after the call: an answer to "advance the clock" carries the moved clock.
			res.setHeader('Date', core.clock.httpDate());
			if (result === undefined) return writeJson(res, 204, undefined);
			writeJson(res, 200, result);
		} catch (error) {
			const status = error instanceof ControlError ? error.status : 500;
			writeJson(res, status, { error: errorName(status), message: (error as Error).message });
		}
	};
}
