// 1. Request economy.

import { targets } from '../config';
import { table, verdict } from '../lib/markdown';
import { fixed, thousands } from '../lib/stats';
import type { EconomyRow } from '../measures/economy';
import type { Section, Verdict } from './section';

export function economySection(rows: EconomyRow[]): Section {
	const verdicts: Verdict[] = [];
	const returnAll = rows.filter((row) => row.mode === 'returnAll');
	const sizes = [...new Set(returnAll.map((row) => row.n))];
	const returnAllRows = sizes.map((n) => {
		const ours = returnAll.find((row) => row.client === 'node' && row.n === n)!;
		const http = returnAll.find((row) => row.client === 'http' && row.n === n);
		const ratio = ours.requests / ours.expected;
		const complete = ours.status === 'success' && ours.received === n && ours.distinct === n;
		const met = ratio === targets.requestRatio && complete;
		verdicts.push({
			measure: `1. Requests ÷ ⌈N/100⌉, Return All N = ${thousands(n)}`,
			figure: fixed(ratio, 2),
			target: `exactly ${fixed(targets.requestRatio, 2)}`,
			met,
		});
		return [
			thousands(n),
			thousands(ours.requests),
			thousands(ours.expected),
			`**${fixed(ratio, 2)}**`,
			`${fixed(targets.requestRatio, 2)}`,
			verdict(met),
			`${thousands(ours.received)} (${thousands(ours.distinct)} distinct)`,
			ours.pageSizes,
			ours.onlyCursorAfterFirst ? 'yes' : 'no',
			http ? `${thousands(http.requests)} (${fixed(http.requests / http.expected, 2)})` : 'n/a',
		];
	});
	const limits = rows.filter((row) => row.mode === 'limit');
	const limitRows = limits.map((row) => {
		const ratio = row.requests / row.expected;
		const met = ratio === targets.requestRatio && row.received === row.n && row.distinct === row.n;
		verdicts.push({
			measure: `1. Requests ÷ ⌈L/100⌉, Limit L = ${row.n}`,
			figure: fixed(ratio, 2),
			target: `exactly ${fixed(targets.requestRatio, 2)}`,
			met,
		});
		return [
			String(row.n),
			String(row.requests),
			String(row.expected),
			`**${fixed(ratio, 2)}**`,
			fixed(targets.requestRatio, 2),
			verdict(met),
			`${row.received} (${row.distinct} distinct)`,
			row.pageSizes,
		];
	});
	const markdown = [
		"Requests counted in the sandbox's own request log (`GET /v1/leads`), one run each (counts do not vary).",
		'',
		table(
			[
				'Return All, N leads',
				'Requests (ours)',
				'⌈N/100⌉',
				'Ratio',
				'Target',
				'',
				'Leads returned',
				'`limit` per request',
				'Only `cursor`+`limit` after page 1',
				'HTTP Request node requests (ratio)',
			],
			returnAllRows,
		),
		'',
		table(
			[
				'Limit L',
				'Requests',
				'⌈L/100⌉',
				'Ratio',
				'Target',
				'',
				'Leads returned',
				'`limit` per request',
			],
			limitRows,
		),
	].join('\n');
	return { title: '1. Request economy', markdown, verdicts };
}
