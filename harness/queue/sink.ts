import { createServer, type Server } from 'http';

// Where the suite's workflows report what they ran: their last node POSTs a small JSON record
// here (n8n's HTTP Request node), so runs per event are counted as they happen, from the
// workers that ran them, without reading n8n's execution data back.

export interface SinkRecord {
	at: number;
	[field: string]: unknown;
}

export interface RunSink {
	url: string;
	records: SinkRecord[];
	/** Records of one kind (the `kind` field each workflow sets). */
	of(kind: string): SinkRecord[];
	clear(): void;
	close(): Promise<void>;
}

export async function startRunSink(): Promise<RunSink> {
	const records: SinkRecord[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			try {
				const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<
					string,
					unknown
				>;
				records.push({ ...parsed, at: Date.now() });
				res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
			} catch {
				res.writeHead(400).end();
			}
		});
	});
	server.keepAliveTimeout = 1000;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}/run`,
		records,
		of: (kind) => records.filter((record) => record.kind === kind),
		clear: () => {
			records.length = 0;
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
