import { request as httpRequest } from 'http';
import { request as httpsRequest } from 'https';

export interface HttpResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	/** The body parsed as JSON, or undefined when it is not JSON. */
	json: any;
}

/**
 * One HTTP(S) request on loopback. Self-signed certificates are accepted: the suite makes its own.
 * Every request has a time limit so that a hung server fails the test instead of the whole run.
 */
export function httpCall(
	method: string,
	url: string,
	{
		headers = {},
		body,
		timeoutMs = 30_000,
	}: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<HttpResponse> {
	const target = new URL(url);
	const payload =
		body === undefined
			? undefined
			: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
	const allHeaders: Record<string, string> = { accept: 'application/json', ...headers };
	if (payload) {
		allHeaders['content-type'] ??= 'application/json';
		allHeaders['content-length'] = String(payload.length);
	}
	const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
	return new Promise((resolve, reject) => {
		const req = send(
			target,
			{ method, headers: allHeaders, rejectUnauthorized: false, timeout: timeoutMs },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					let json: unknown;
					try {
						json = text ? JSON.parse(text) : undefined;
					} catch {
						json = undefined;
					}
					resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
				});
				res.on('error', reject);
			},
		);
		req.on('timeout', () =>
			req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)),
		);
		req.on('error', reject);
		req.end(payload);
	});
}
