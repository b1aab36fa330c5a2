// 2 and 3. Client overhead through n8n's engine, and against the HTTP Request node.

import { targets } from '../config';
import { CLIENT_LABELS, type ClientName } from '../lib/clients';
import { table, verdict } from '../lib/markdown';
import { fixed, median, medianRatio, thousands, withSpread } from '../lib/stats';
import type { EconomyRow } from '../measures/economy';
import type { OverheadResult, OverheadSample } from '../measures/overhead';
import type { RateLimitedResult } from '../measures/rateLimited';
import { finishes } from './rateLimited';
import type { Section, Verdict } from './section';

function samplesOf(result: OverheadResult, client: ClientName): OverheadSample[] {
	return result.samples.filter((sample) => sample.client === client).sort((a, b) => a.rep - b.rep);
}

/** Per-repetition overhead per page of a client over the bare loop of the same repetition. */
function overheadPerPage(
	result: OverheadResult,
	client: ClientName,
	measure: 'ms' | 'cpuMs' = 'ms',
): number[] {
	const bare = samplesOf(result, 'bare');
	return samplesOf(result, client).map(
		(sample, index) => (sample[measure] - bare[index][measure]) / result.pages,
	);
}

export function overheadSection(result: OverheadResult): Section {
	const verdicts: Verdict[] = [];
	const clients = [...new Set(result.samples.map((sample) => sample.client))];
	const reps = samplesOf(result, 'bare').length;
	const ourOverhead = overheadPerPage(result, 'node');
	const httpOverhead = overheadPerPage(result, 'http');
	const rows = clients.map((client) => {
		const samples = samplesOf(result, client);
		const ms = samples.map((sample) => sample.ms);
		const perPage = ms.map((value) => value / result.pages);
		const itemsPerSecond = samples.map((sample) => (sample.received / sample.ms) * 1000);
		const complete = samples.every(
			(sample) =>
				sample.status === 'success' &&
				sample.received === result.leads &&
				sample.distinct === result.leads,
		);
		const over = client === 'bare' ? undefined : overheadPerPage(result, client);
		const overCpu = client === 'bare' ? undefined : overheadPerPage(result, client, 'cpuMs');
		const target = client === 'node' ? `≤ ${targets.overheadPerPageMs} ms` : '';
		const met = client === 'node' ? median(ourOverhead) <= targets.overheadPerPageMs : undefined;
		return [
			CLIENT_LABELS[client],
			withSpread(ms, 0),
			fixed(median(perPage), 2),
			over ? `**${withSpread(over, 2)}**` : '0 (reference)',
			overCpu ? withSpread(overCpu, 2) : '0 (reference)',
			target,
			met === undefined ? '' : verdict(met),
			thousands(median(itemsPerSecond)),
			`${thousands(median(samples.map((sample) => sample.items)))}`,
			complete ? 'all, each once' : 'INCOMPLETE',
		];
	});
	verdicts.push({
		measure: '2. Client overhead per page (ours − bare fetch)',
		figure: `${fixed(median(ourOverhead), 2)} ms`,
		target: `≤ ${targets.overheadPerPageMs} ms`,
		met: median(ourOverhead) <= targets.overheadPerPageMs,
	});
	const factor = medianRatio(httpOverhead, ourOverhead);
	const cpuFactor = medianRatio(
		overheadPerPage(result, 'http', 'cpuMs'),
		overheadPerPage(result, 'node', 'cpuMs'),
	);
	const markdown = [
		`Return All of ${thousands(result.leads)} leads (${result.pages} pages of 100) from the replay server ` +
			`(recorded pages answered from memory), ${reps} repetitions in one process, client order rotated; ` +
			'median (min–max). Overhead per page = (client time − bare fetch time of the same repetition) ÷ pages, ' +
			'in wall time (the target) and in CPU time of the process (steadier on a shared machine; the replay ' +
			'server runs in the same process, so its share cancels out in the difference).',
		'',
		table(
			[
				'Client',
				'Time (ms)',
				'ms per page',
				'Overhead per page vs bare (ms)',
				'CPU overhead per page (ms)',
				'Target',
				'',
				'Leads/s',
				'Items out',
				'Leads',
			],
			rows,
		),
		'',
		`The HTTP Request node's overhead per page is **${fixed(factor, 1)}×** ours in wall time and ` +
			`**${fixed(cpuFactor, 1)}×** in CPU time in this run (medians of per-repetition ratios).`,
	].join('\n');
	return { title: '2. Client overhead', markdown, verdicts };
}

export function versusHttpSection(
	overhead: OverheadResult | undefined,
	economy: EconomyRow[] | undefined,
	rateLimited: RateLimitedResult[] | undefined,
): Section {
	const verdicts: Verdict[] = [];
	const rows: string[][] = [];
	if (overhead) {
		const ours = samplesOf(overhead, 'node');
		const http = samplesOf(overhead, 'http');
		const split = samplesOf(overhead, 'httpSplit');
		const requestRatio = median(ours.map((s) => s.requests)) / median(http.map((s) => s.requests));
		const timeRatio = medianRatio(
			ours.map((s) => s.ms),
			http.map((s) => s.ms),
		);
		const splitRatio = split.length
			? medianRatio(
					ours.map((s) => s.ms),
					split.map((s) => s.ms),
				)
			: Number.NaN;
		verdicts.push(
			{
				measure: `3. Requests ÷ HTTP Request node's (${thousands(overhead.leads)} leads)`,
				figure: fixed(requestRatio, 2),
				target: `≤ ${fixed(targets.timeRatioVsHttpNode, 1)}`,
				met: requestRatio <= 1,
			},
			{
				measure: `3. Time ÷ HTTP Request node's (${thousands(overhead.leads)} leads)`,
				figure: fixed(timeRatio, 2),
				target: `≤ ${fixed(targets.timeRatioVsHttpNode, 1)}`,
				met: timeRatio <= targets.timeRatioVsHttpNode,
			},
		);
		rows.push(
			[
				`Requests, Return All of ${thousands(overhead.leads)}`,
				thousands(median(ours.map((s) => s.requests))),
				thousands(median(http.map((s) => s.requests))),
				`**${fixed(requestRatio, 2)}**`,
				'≤ 1.0',
				verdict(requestRatio <= 1),
			],
			[
				`Time, Return All of ${thousands(overhead.leads)} (replay server)`,
				`${fixed(median(ours.map((s) => s.ms)), 0)} ms`,
				`${fixed(median(http.map((s) => s.ms)), 0)} ms`,
				`**${fixed(timeRatio, 2)}**`,
				'≤ 1.0',
				verdict(timeRatio <= targets.timeRatioVsHttpNode),
			],
			[
				'Time against HTTP Request + Split Out (one item per lead, as ours)',
				`${fixed(median(ours.map((s) => s.ms)), 0)} ms`,
				`${fixed(median(split.map((s) => s.ms)), 0)} ms`,
				fixed(splitRatio, 2),
				'',
				'',
			],
			[
				'Items output',
				thousands(median(ours.map((s) => s.items))),
				`${thousands(median(http.map((s) => s.items)))} (one per page)`,
				'',
				'',
				'',
			],
		);
	}
	if (economy) {
		for (const ours of economy.filter((row) => row.mode === 'returnAll' && row.client === 'node')) {
			const http = economy.find((row) => row.client === 'http' && row.n === ours.n);
			if (!http) continue;
			rows.push([
				`Requests against the sandbox, N = ${thousands(ours.n)}`,
				thousands(ours.requests),
				thousands(http.requests),
				fixed(ours.requests / http.requests, 2),
				'≤ 1.0',
				verdict(ours.requests <= http.requests),
			]);
		}
	}
	if (rateLimited) {
		for (const scenario of ['a', 'b'] as const) {
			const of = (client: string) =>
				rateLimited.find((result) => result.scenario === scenario && result.client === client);
			const ours = of('node');
			const httpDefault = of('httpDefault');
			const httpCareful = of('httpCareful');
			if (!ours) continue;
			const describe = (result: RateLimitedResult | undefined) =>
				result
					? [...new Set(result.runs.map((run) => finishes(run, result.leads)))].join('; ')
					: 'n/a';
			rows.push([
				`Under a rate limit that bites, scenario (${scenario}), finishes?`,
				describe(ours),
				`default settings: ${describe(httpDefault)}; careful settings: ${describe(httpCareful)}`,
				'',
				'finishes with all leads',
				verdict(ours.runs.every((run) => finishes(run, ours.leads) === 'yes, all leads')),
			]);
		}
	}
	const markdown = [
		"n8n's HTTP Request node 4.5, configured as a user would without this package: Header Auth " +
			'credential (`X-API-Key`), query `limit=100`, Pagination "Update a Parameter in Each Request" ' +
			'with `cursor` = `{{ $response.body.pagination.next_cursor }}` in the query, complete when ' +
			'`{{ !$response.body.pagination.has_more }}`. It outputs one item per page (the response body); ' +
			'its leads are counted from the `data` arrays. "+ Split Out" adds n8n\'s Split Out node on `data` ' +
			'so that it, like ours, outputs one item per lead. Both run in the same process through the ' +
			'same engine against the same server; time ratios are per repetition, then the median.',
		'',
		table(['Figure', 'Ours', 'HTTP Request node', 'Ours ÷ theirs', 'Target', ''], rows),
	].join('\n');
	return { title: '3. Against the HTTP Request node', markdown, verdicts };
}
