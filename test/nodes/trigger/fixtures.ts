import { createHmac } from 'crypto';

import type { INodeParameters } from 'n8n-workflow';

import type { TriggerHarness } from '../../../harness/engine';

export const SIGNATURE = 'X-Service-Signature';

export function hmacHex(body: Buffer | string, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

/** Headers of a delivery signed the way the service signs. */
export function signedHeaders(body: Buffer | string, secret: string): Record<string, string> {
	return { 'Content-Type': 'application/json', [SIGNATURE]: hmacHex(body, secret) };
}

export function eventBody(
	event: string,
	data: Record<string, unknown>,
	timestamp?: string,
): string {
	return JSON.stringify({
		event,
		timestamp: timestamp ?? new Date().toISOString(),
		organization_id: 'org_alpha',
		data,
	});
}

/** An ISO timestamp `minutes` before now (negative: ahead of now). */
export function minutesAgo(minutes: number, now = Date.now()): string {
	return new Date(now - minutes * 60_000).toISOString();
}

export function triggerParameters(overrides: INodeParameters = {}): INodeParameters {
	return { events: ['lead.qualified'], subscription: 'automatic', options: {}, ...overrides };
}

/** The stored signing secret of an activated trigger. */
export function storedSecret(harness: TriggerHarness): string {
	const secret = harness.staticData.signingSecret;
	if (typeof secret !== 'string') throw new Error('the trigger stored no signing secret');
	return secret;
}
