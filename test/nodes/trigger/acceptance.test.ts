import { createServer, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import type { IWebhookFunctions } from 'n8n-workflow';

import { forgetUnlessAccepted } from '../../../nodes/LeadConversationsTrigger/delivery/acceptance';

/** Answers one real HTTP request with `status` after the node watched the response. */
async function deliveryAnswered(status: number | 'closed'): Promise<boolean> {
	let forgotten = false;
	let answered!: () => void;
	const done = new Promise<void>((resolve) => (answered = resolve));
	const server = createServer((_req, res: ServerResponse) => {
		const context = { getResponseObject: () => res } as unknown as IWebhookFunctions;
		forgetUnlessAccepted(context, () => (forgotten = true));
		res.on('close', () => setImmediate(answered));
		if (status === 'closed') res.destroy();
		else res.writeHead(status).end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await fetch(`http://127.0.0.1:${port}/`, { method: 'POST' }).catch(() => undefined);
	await done;
	server.close();
	return forgotten;
}

describe('a delivery n8n did not accept is forgotten, so the retry runs', () => {
	it.each([200, 204])('kept when n8n answers %i', async (status) => {
		expect(await deliveryAnswered(status)).toBe(false);
	});

	it.each([500, 503, 404])('forgotten when n8n answers %i', async (status) => {
		expect(await deliveryAnswered(status)).toBe(true);
	});

	it('kept when the connection closes before any answer: n8n may still create the run', async () => {
		expect(await deliveryAnswered('closed')).toBe(false);
	});

	it('an engine without a response object with events changes nothing', () => {
		const context = { getResponseObject: () => ({}) } as unknown as IWebhookFunctions;
		expect(() => forgetUnlessAccepted(context, () => undefined)).not.toThrow();
	});
});
