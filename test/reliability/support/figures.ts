// The figures of the suite: each scenario appends what it measured to one JSON-lines file (its
// path is set by globalSetup), and globalTeardown prints them as one table after every file ran.
// A row is written before the scenario asserts, so a missed figure is still shown with its value.

import { appendFileSync, readFileSync } from 'fs';

export const FIGURES_FILE_VARIABLE = 'RELIABILITY_FIGURES_FILE';

/** The scenarios of the suite, in the order the table lists them, with the figure each must show. */
export const SCENARIOS = [
	{
		id: 'returnAllUnderFaults',
		scenario:
			'Return All of 2,000 leads while 20% of GETs answer 500/503 or drop the connection, 50 runs',
		required: '50/50 runs yield exactly 2,000 unique leads, none missing, none twice',
	},
	{
		id: 'writesUnderFaults',
		scenario:
			'Create lead / send message while responses are delayed past the time-out or the connection drops after sending',
		required: 'leads created on the service = leads the node reported; never a duplicate',
	},
	{
		id: 'rateLimit',
		scenario: 'Offered load 3× the rate limit (several items, several workflows in parallel)',
		required: 'zero failed executions; 429s bounded by one per window per key',
	},
	{
		id: 'rateLimitAcrossWorkers',
		scenario:
			'4 Return All runs of 1,000 leads over two workers that share nothing but the service (one key, 20 requests per 2 s)',
		required:
			'every lead once per run; zero failed executions; at most one 429 per window for all workers together; time ≤ 1.25 × pages ÷ limit × window',
	},
	{
		id: 'expiredCursor',
		scenario: 'Return All when the service answers a cursor with 400 (expired) mid-way',
		required: 'a clear error naming the page reached; no partial output presented as complete',
	},
	{
		id: 'fuzzedDeliveries',
		scenario:
			'10,000 fuzzed deliveries to the trigger (byte flips in body or digest, truncation, wrong length, non-hex, missing/duplicated header, wrong secret, re-serialized JSON); 2,000 replays of correctly signed deliveries (inside and after the replay window, stamped too old or too far ahead)',
		required:
			'100% of fuzzed deliveries answered 401; replays 200 inside the window, 403 outside; zero runs from either',
	},
	{
		id: 'validDeliveries',
		scenario: 'Every valid delivery, also with the retries the service sends',
		required: '100% accepted; exactly one run per event',
	},
	{
		id: 'subscriptionCycles',
		scenario:
			"100 activate/deactivate cycles, including cycles where the node's static data was lost",
		required:
			'zero subscriptions left on the service that no active trigger owns; never two for one trigger',
	},
	{
		id: 'invalidInput',
		scenario: "Every invalid value of every field in the spec's tables (table-driven)",
		required:
			'an error naming the field and the item; zero requests sent for values checkable locally',
	},
	{
		id: 'secrets',
		scenario: 'All of the above',
		required:
			'the API key and the signing secret appear in no error message, log line or output item',
	},
	{
		id: 'roundTrip',
		scenario:
			'Bodies at the limits: 1 MiB lead notes, 10,000-character messages, Unicode names, emoji, RTL text',
		required: 'round-trip unchanged',
	},
] as const;

export type ScenarioId = (typeof SCENARIOS)[number]['id'];

export interface FigureRecord {
	id: ScenarioId;
	/** What was measured, in words a reader of the table understands. */
	measured: string;
	pass: boolean;
	/** Numbers the table aggregates (the secret scan is reported by every file). */
	counts?: Record<string, number>;
	/** Which file or case the row comes from. */
	source?: string;
}

export function recordFigure(record: FigureRecord): void {
	const file = process.env[FIGURES_FILE_VARIABLE];
	if (!file) return; // run outside the reliability config: nothing collects the figures
	appendFileSync(file, `${JSON.stringify(record)}\n`);
}

export function readFigures(file: string): FigureRecord[] {
	let text = '';
	try {
		text = readFileSync(file, 'utf8');
	} catch {
		return [];
	}
	return text
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line) as FigureRecord);
}

/** 1234567 → "1,234,567" */
export function count(value: number): string {
	return value.toLocaleString('en-US');
}
