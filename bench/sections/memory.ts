// 5. Memory.

import { targets } from '../config';
import { CLIENT_LABELS, type ClientName } from '../lib/clients';
import { table } from '../lib/markdown';
import { fixed, median, mib, thousands } from '../lib/stats';
import type { MemoryResult } from '../measures/memory';
import type { Section, Verdict } from './section';

export function memorySection(results: MemoryResult[]): Section {
	const verdicts: Verdict[] = [];
	const sizes = [...new Set(results.map((result) => result.leads))].sort((a, b) => a - b);
	const clients = [...new Set(results.map((result) => result.client))];
	const of = (client: ClientName, leads: number) =>
		results.filter((result) => result.client === client && result.leads === leads);
	const med = (list: MemoryResult[], pick: (result: MemoryResult) => number) =>
		median(list.map(pick));
	const rows: string[][] = [];
	for (const leads of sizes) {
		const bareRetained = med(of('bare', leads), (r) => r.retainedHeapBytes);
		for (const client of clients) {
			const list = of(client, leads);
			if (list.length === 0) continue;
			const retained = med(list, (r) => r.retainedHeapBytes);
			const json = med(list, (r) => r.outputJsonBytes);
			const complete = list.every(
				(r) => r.status === 'success' && r.received === leads && r.distinct === leads,
			);
			rows.push([
				thousands(leads),
				CLIENT_LABELS[client],
				mib(json),
				mib(med(list, (r) => r.peakRssBytes)),
				mib(med(list, (r) => r.peakRssBytes - r.baselineRssBytes)),
				mib(med(list, (r) => r.peakHeapGrowthBytes)),
				mib(med(list, (r) => r.peakExternalGrowthBytes)),
				mib(retained),
				fixed(retained / json, 2),
				client === 'bare' ? '1.00' : fixed(retained / bareRetained, 2),
				complete ? 'yes' : 'INCOMPLETE',
			]);
			if (client === 'node') {
				const met = retained / bareRetained <= targets.retainedVsBareMax;
				verdicts.push({
					measure: `5. Heap retained ÷ bare loop's, ${thousands(leads)} leads (no second copy)`,
					figure: fixed(retained / bareRetained, 2),
					target: `≤ ${targets.retainedVsBareMax}`,
					met,
				});
			}
		}
	}
	let linearity = '';
	if (sizes.length >= 2) {
		const [small, large] = [sizes[0], sizes[sizes.length - 1]];
		const perByte = (leads: number) =>
			med(of('node', leads), (r) => r.retainedHeapBytes) /
			med(of('node', leads), (r) => r.outputJsonBytes);
		const ratio = perByte(large) / perByte(small);
		const [low, high] = targets.linearityBand;
		const met = ratio >= low && ratio <= high;
		verdicts.push({
			measure: `5. Heap retained per output byte, ${thousands(large)} ÷ ${thousands(small)} leads (linear)`,
			figure: fixed(ratio, 2),
			target: `${low}–${high}`,
			met,
		});
		linearity =
			`\nOurs: heap retained per byte of output JSON at ${thousands(large)} leads ÷ at ${thousands(small)} leads = ` +
			`**${fixed(ratio, 2)}** (target ${low}–${high}: growth linear in the output).`;
	}
	const markdown = [
		'Each figure from a fresh process (`--expose-gc`) per client and size, median of the runs, against a ' +
			'data server (the sandbox) in another process. Baseline after module load, a warm-up and a full GC. ' +
			'Peak RSS, heap and memory outside the heap (Buffers) sampled every 5 ms during the run; "heap ' +
			'retained" is after the run and a full ' +
			"GC with the output still held (as n8n holds a node's output). A second copy of the leads would " +
			'show as "retained ÷ bare" of about 2 or more.',
		'',
		table(
			[
				'Leads',
				'Client',
				'Output JSON (MiB)',
				'Peak RSS (MiB)',
				'Peak RSS growth (MiB)',
				'Peak heap growth (MiB)',
				'Peak growth outside the heap (MiB)',
				'Heap retained (MiB)',
				'Retained ÷ JSON',
				'Retained ÷ bare',
				'All leads',
			],
			rows,
		),
		linearity,
	].join('\n');
	return { title: '5. Memory', markdown, verdicts };
}
