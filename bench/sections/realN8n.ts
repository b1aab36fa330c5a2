// 2b, 3b and 6a: Return All in the real n8n, and the cost of the signature check.

import { targets } from '../config';
import { table, verdict } from '../lib/markdown';
import { fixed, median, medianRatio, thousands, withSpread } from '../lib/stats';
import type { RealN8nResult } from '../measures/realN8n';
import type { SignatureRow } from '../measures/signature';
import type { ReturnAllPath } from '../n8n/returnAll';
import { pendingSection, type Pending, type Section } from './section';

export function signatureSection(rows: SignatureRow[]): Section {
	const markdown = [
		'Per delivery, median of batches, in one process. "Signature check" is the trigger\'s ' +
			'`isValidSignature` (format checks, HMAC-SHA256 of the raw body, constant-time compare); "HMAC alone" ' +
			'is the floor any receiver pays; "whole webhook()" is the trigger\'s webhook() in n8n\'s WebhookContext ' +
			'(signature, parse, duplicate check, answer; signing secret set by hand, so no service call).',
		'',
		table(
			[
				'Body',
				'Signature check (µs)',
				'HMAC alone (µs)',
				'Check − HMAC (µs)',
				'Whole webhook() (µs)',
			],
			rows.map((row) => [
				`${fixed(row.bytes / 1024, 0)} KB`,
				`**${fixed(row.verifyUs, 1)}**`,
				fixed(row.hmacUs, 1),
				fixed(row.verifyUs - row.hmacUs, 1),
				`${fixed(row.webhookUs, 0)} (HTTP ${row.webhookStatus})`,
			]),
		),
	].join('\n');
	return { title: '6a. Webhook signature verification', markdown, verdicts: [] };
}

export function returnAllInN8nSection(result: RealN8nResult | Pending): Section {
	const title = '2b and 3b. Return All in the real n8n';
	const overheadMeasure = '2b. Client overhead per page in real n8n (ours − webhook-only − bare)';
	const ratioMeasure = "3b. Time ÷ HTTP Request node's in real n8n";
	if ('pending' in result) {
		return pendingSection(title, [overheadMeasure, ratioMeasure], '≤ 2 ms; ≤ 1.0', result.pending);
	}
	const { returnAll } = result;
	const of = (path: ReturnAllPath) =>
		returnAll.samples.filter((sample) => sample.path === path).sort((a, b) => a.rep - b.rep);
	const bare = of('bare');
	const empty = of('empty');
	const overhead = (path: ReturnAllPath) =>
		of(path).map((sample, i) => (sample.ms - empty[i].ms - bare[i].ms) / returnAll.pages);
	const ourOverhead = overhead('node');
	const httpOverhead = overhead('http');
	const timeRatio = medianRatio(
		of('node').map((s) => s.ms),
		of('http').map((s) => s.ms),
	);
	const overheadMet = median(ourOverhead) <= targets.overheadPerPageMs;
	const ratioMet = timeRatio <= targets.timeRatioVsHttpNode;
	const labels: Record<ReturnAllPath, string> = {
		bare: 'bare fetch loop (bench process, Node 20)',
		empty: 'Webhook → No Operation (fixed cost of a run)',
		node: 'Webhook → Lead Conversations, Get Many, Return All',
		http: 'Webhook → HTTP Request 4.5 with cursor pagination',
	};
	const rows = (['bare', 'empty', 'node', 'http'] as ReturnAllPath[]).map((path) => {
		const samples = of(path);
		const ok = samples.every(
			(sample) =>
				sample.status === 200 && (path === 'empty' || sample.requests === returnAll.pages),
		);
		const perPage = path === 'node' || path === 'http' ? overhead(path) : undefined;
		return [
			labels[path],
			withSpread(
				samples.map((s) => s.ms),
				0,
			),
			perPage ? `**${withSpread(perPage, 2)}**` : '',
			path === 'node' ? `≤ ${targets.overheadPerPageMs} ms` : '',
			path === 'node' ? verdict(overheadMet) : '',
			path === 'empty' ? '0' : thousands(median(samples.map((s) => s.requests))),
			ok ? 'yes' : 'NO',
		];
	});
	const markdown = [
		`n8n ${result.n8nVersion} on Node ${result.nodeVersion}, n8n defaults, the package installed as a community ` +
			`package. Return All of ${thousands(returnAll.leads)} leads (${returnAll.pages} pages) from the replay ` +
			'server (in the bench process), each path behind a webhook answered when the run ends ("Last Node", no ' +
			'data), successful runs not saved (so that writing 20,000 items to the database is not what is measured). ' +
			`${returnAll.samples.filter((s) => s.path === 'node').length} repetitions, order rotated; median (min–max). ` +
			'Overhead per page = (path − webhook-only − bare fetch of the same repetition) ÷ pages.',
		'',
		table(
			[
				'Path',
				'Time (ms)',
				'Overhead per page (ms)',
				'Target',
				'',
				'Requests',
				'Answered 200, all pages read',
			],
			rows,
		),
		'',
		`Our time ÷ the HTTP Request node's: **${fixed(timeRatio, 2)}** (target ≤ ${targets.timeRatioVsHttpNode}: ` +
			`${verdict(ratioMet)}); the HTTP Request node's overhead per page is ` +
			`**${fixed(medianRatio(httpOverhead, ourOverhead), 1)}×** ours (medians of per-repetition ratios).`,
	].join('\n');
	return {
		title,
		markdown,
		verdicts: [
			{
				measure: overheadMeasure,
				figure: `${fixed(median(ourOverhead), 2)} ms`,
				target: `≤ ${targets.overheadPerPageMs} ms`,
				met: overheadMet,
			},
			{ measure: ratioMeasure, figure: fixed(timeRatio, 2), target: '≤ 1.0', met: ratioMet },
		],
	};
}
