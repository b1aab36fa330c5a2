import { randomBytes } from 'crypto';
import {
	DEFAULT_LEADS_ALPHA,
	DEFAULT_SEED,
	DELIVERY_TIMEOUT_MS_DEFAULT,
	RATE_LIMIT_PER_MINUTE,
	RATE_LIMIT_WINDOW_MS,
	type EventType,
} from './constants';
import type { RequestLogEntry, RuntimeOptions, SandboxOptions } from './contract';
import { SandboxClock } from './clock';
import { CursorCodec } from './cursor';
import { WebhookDispatcher } from './deliveries';
import { FaultInjector } from './faults';
import { KeyRegistry } from './keys';
import { RateLimiter } from './rate-limit';
import { seedStore } from './seed';
import { Store } from './store';
import { iso } from './time';

export type ResolvedOptions = Required<SandboxOptions>;

/** Keeps the request log bounded in long benchmark runs. */
const REQUEST_LOG_CAP = 200_000;

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
	return {
		port: options.port ?? 0,
		host: options.host ?? '127.0.0.1',
		leads: options.leads ?? DEFAULT_LEADS_ALPHA,
		seed: options.seed ?? DEFAULT_SEED,
		rateLimit: options.rateLimit ?? RATE_LIMIT_PER_MINUTE,
		windowMs: options.windowMs ?? RATE_LIMIT_WINDOW_MS,
		retryScale: options.retryScale ?? 1,
		allowHttpWebhooks: options.allowHttpWebhooks ?? false,
		deliveryTimeoutMs: options.deliveryTimeoutMs ?? DELIVERY_TIMEOUT_MS_DEFAULT,
	};
}

/** Everything one running sandbox holds: data, keys, limits, faults, logs, deliveries. */
export class SandboxCore {
	store: Store;
	readonly keys: KeyRegistry;
	readonly rateLimiter: RateLimiter;
	readonly faults = new FaultInjector();
	readonly cursors = new CursorCodec();
	/** The service's time: data, the Date header and event timestamps follow it. */
	readonly clock = new SandboxClock();
	readonly dispatcher: WebhookDispatcher;
	requestLog: RequestLogEntry[] = [];
	private readonly deliveryOptions: { retryScale: number; timeoutMs: number };

	constructor(readonly options: ResolvedOptions) {
		this.store = seedStore({ seed: options.seed, leadsAlpha: options.leads });
		this.keys = new KeyRegistry(options.seed);
		this.rateLimiter = new RateLimiter(options.rateLimit, options.windowMs);
		// Shared with the dispatcher, so run-time changes apply to the next attempt.
		this.deliveryOptions = { retryScale: options.retryScale, timeoutMs: options.deliveryTimeoutMs };
		this.dispatcher = new WebhookDispatcher(this.deliveryOptions, (id) =>
			this.store.webhooks.has(id),
		);
	}

	/** Changes delivery and subscription options at run time. */
	setOptions(changes: RuntimeOptions): void {
		if (changes.retryScale !== undefined) {
			this.options.retryScale = changes.retryScale;
			this.deliveryOptions.retryScale = changes.retryScale;
		}
		if (changes.deliveryTimeoutMs !== undefined) {
			this.options.deliveryTimeoutMs = changes.deliveryTimeoutMs;
			this.deliveryOptions.timeoutMs = changes.deliveryTimeoutMs;
		}
		if (changes.allowHttpWebhooks !== undefined)
			this.options.allowHttpWebhooks = changes.allowHttpWebhooks;
	}

	/** Fresh data; logs, subscriptions, faults, rate-limit counters and revocations cleared. */
	reset(opts: { leads?: number; seed?: number } = {}): void {
		this.dispatcher.cancelAll();
		this.dispatcher.clearLog();
		this.store = seedStore({
			seed: opts.seed ?? this.options.seed,
			leadsAlpha: opts.leads ?? this.options.leads,
		});
		this.faults.clear();
		this.rateLimiter.clear();
		this.keys.restore();
		this.clock.reset();
		this.requestLog = [];
	}

	logRequest(entry: RequestLogEntry): void {
		if (this.requestLog.length >= REQUEST_LOG_CAP) this.requestLog.splice(0, REQUEST_LOG_CAP / 10);
		this.requestLog.push(entry);
	}

	/** Sends an event to the organization's subscribers: serialized once, same bytes for all. */
	emit(organizationId: string, event: EventType, data: unknown): void {
		const org = this.store.organizations.get(organizationId);
		if (!org) return;
		const subscribers = [...org.webhooks.values()].filter(
			(webhook) => webhook.events.includes(event) || webhook.events.includes('*'),
		);
		if (subscribers.length === 0) return;
		const body = Buffer.from(
			JSON.stringify({
				event,
				timestamp: iso(this.clock.now()),
				organization_id: organizationId,
				data,
			}),
		);
		for (const webhook of subscribers) this.dispatcher.deliver(webhook, event, body);
	}

	/** A new unique ID with the given prefix. */
	newId(prefix: string, exists: (id: string) => boolean): string {
		let id: string;
		do id = `${prefix}${randomBytes(8).toString('hex')}`;
		while (exists(id));
		return id;
	}
}
