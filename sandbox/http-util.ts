import type { IncomingMessage, ServerResponse } from 'http';

export interface BodyResult {
	text: string;
	tooLarge: boolean;
}

/** Stop draining an oversized body after this many bytes and drop the connection instead. */
const DRAIN_CAP_BYTES = 64 * 1024 * 1024;

/**
 * Reads a request body up to `limit` bytes. An oversized body is still drained (up to a cap)
 * so that the client receives the 413 answer instead of a reset connection.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				tooLarge = true;
				chunks.length = 0;
				if (size > DRAIN_CAP_BYTES) req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () =>
			resolve({ text: tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge }),
		);
		req.on('error', reject);
		req.on('close', () => {
			if (!req.complete) reject(new Error('request aborted'));
		});
	});
}

export function writeJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	if (body === undefined) {
		res.writeHead(status, headers);
		res.end();
		return;
	}
	const payload = JSON.stringify(body);
	res.writeHead(status, {
		...headers,
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': String(Buffer.byteLength(payload)),
	});
	res.end(payload);
}

/** `application/json`, with any parameters (charset...), in any letter case. */
export function isJsonContentType(header: string | undefined): boolean {
	if (!header) return false;
	return header.split(';')[0].trim().toLowerCase() === 'application/json';
}

export function isLoopback(address: string | undefined): boolean {
	if (!address) return false;
	return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
