// 4. Rate-limited throughput.

import { targets } from '../config';
import { table } from '../lib/markdown';
import { fixed, median, thousands, withSpread } from '../lib/stats';
import type { RateLimitedResult, RateLimitedRun } from '../measures/rateLimited';
import type { Section, Verdict } from './section';

/** How a run ended, in words: a partial list reported as a success says so. */
export function finishes(run: RateLimitedRun, leads: number): string {
	if (run.status !== 'success') return `fails (${run.error ?? run.status})`;
	if (run.received === leads && run.distinct === leads) return 'yes, all leads';
	return `"success" with ${thousands(run.received)} of ${thousands(leads)} leads`;
}

const RATE_LIMITED_LABELS: Record<string, string> = {
	node: 'Lead Conversations node',
	httpDefault: 'HTTP Request node, default settings',
	httpCareful: 'HTTP Request node, careful settings',
};

export function rateLimitedSection(
	results: RateLimitedResult[],
	settings: {
		limit: number;
		windowMs: number;
		otherPerWindow: number;
		careful: { requestIntervalMs: number; maxTries: number; waitBetweenTriesMs: number };
	},
): Section {
	const verdicts: Verdict[] = [];
	const parts: string[] = [
		`Sandbox limit ${settings.limit} requests per ${settings.windowMs / 1000} s window (fixed windows on the clock). ` +
			`(a) Return All alone; (b) Return All while another client spends ${settings.otherPerWindow} requests ` +
			'of every window on the same key, as each window opens. Each run starts 100 ms into a window, on a ' +
			'fresh sandbox. Limit-optimal time: a client sending each request the moment the window allows, ' +
			'at the unthrottled speed of a bare fetch loop measured in the same process. HTTP Request node ' +
			`"careful settings": ${settings.careful.requestIntervalMs} ms between requests, Retry On Fail ` +
			`${settings.careful.maxTries} × ${settings.careful.waitBetweenTriesMs / 1000} s. Median (min–max) over the runs.`,
	];
	for (const scenario of ['a', 'b'] as const) {
		const scenarioResults = results.filter((result) => result.scenario === scenario);
		if (scenarioResults.length === 0) continue;
		const leads = scenarioResults[0].leads;
		const rows = scenarioResults.map((result) => {
			const ratio = result.runs.map((run) => run.ms / run.limitOptimalMs);
			const complete = result.runs.every(
				(run) => run.status === 'success' && run.received === leads && run.distinct === leads,
			);
			const failures = result.runs.filter((run) => run.status !== 'success').length;
			const max429 = Math.max(...result.runs.map((run) => run.maxRateLimitedPerWindow));
			const total429 = result.runs.map((run) => run.rateLimited);
			const isOurs = result.client === 'node';
			const max429Target = scenario === 'a' ? 0 : targets.rateLimitedMax429PerWindowB;
			if (isOurs) {
				const ratioMet = median(ratio) <= targets.rateLimitedTimeRatio;
				verdicts.push(
					{
						measure: `4${scenario}. Time ÷ limit-optimal`,
						figure: fixed(median(ratio), 2),
						target: `≤ ${targets.rateLimitedTimeRatio}`,
						met: ratioMet,
					},
					{
						measure: `4${scenario}. Leads received`,
						figure: complete ? 'all, each once' : 'incomplete',
						target: 'all, each once',
						met: complete,
					},
					{
						measure: `4${scenario}. 429s received (most in one window)`,
						figure: String(max429),
						target: `≤ ${max429Target}${scenario === 'a' ? '' : ' per window'}`,
						met: max429 <= max429Target,
					},
					{
						measure: `4${scenario}. Failures`,
						figure: String(failures),
						target: '0',
						met: failures === 0,
					},
				);
			}
			const minReceived = Math.min(...result.runs.map((run) => run.received));
			const maxDuplicates = Math.max(...result.runs.map((run) => run.received - run.distinct));
			return [
				RATE_LIMITED_LABELS[result.client],
				withSpread(
					result.runs.map((run) => run.ms / 1000),
					2,
				),
				withSpread(
					result.runs.map((run) => run.limitOptimalMs / 1000),
					2,
				),
				isOurs ? `**${withSpread(ratio, 2)}**` : withSpread(ratio, 2),
				isOurs ? `≤ ${targets.rateLimitedTimeRatio}` : '',
				`${thousands(minReceived)} of ${thousands(leads)}${maxDuplicates > 0 ? `, ${maxDuplicates} duplicates` : ''}`,
				`${withSpread(total429, 0)} (most in a window: ${max429})`,
				isOurs ? `≤ ${max429Target}${scenario === 'a' ? '' : '/window'}` : '',
				String(failures),
				[...new Set(result.runs.map((run) => finishes(run, leads)))].join('; '),
				scenario === 'b'
					? withSpread(
							result.runs.map((run) => run.otherRateLimited),
							0,
						)
					: '',
			];
		});
		parts.push(
			'',
			`**(${scenario}) ${thousands(leads)} leads${scenario === 'b' ? `, ${settings.otherPerWindow} requests of each window taken by another client` : ', alone on the key'}**`,
			'',
			table(
				[
					'Client',
					'Time (s)',
					'Limit-optimal (s)',
					'Time ÷ optimal',
					'Target',
					'Leads received (fewest)',
					'429s received',
					'Target',
					'Failed runs',
					'Finishes?',
					scenario === 'b' ? "Other client's 429s" : '',
				],
				rows,
			),
		);
	}
	return { title: '4. Rate-limited throughput', markdown: parts.join('\n'), verdicts };
}
