// 6c. n8n's memory during a burst of deliveries: the trigger against n8n's Webhook node.

import { targets } from '../config';
import { table, verdict } from '../lib/markdown';
import { fixed, median, medianRatio, mib, thousands, withSpread } from '../lib/stats';
import { MEMORY_PATHS, type MemoryPath, type N8nMemoryResult } from '../measures/n8nMemory';
import { pendingSection, type Pending, type Section } from './section';

const LABELS: Record<MemoryPath, string> = {
	trigger: 'Lead Conversations Trigger → No Operation',
	webhook: 'Webhook → No Operation',
};

export function n8nMemorySection(result: N8nMemoryResult | Pending): Section {
	const title = "6c. n8n's memory during a burst of deliveries";
	const measure = "6c. n8n's peak RSS in a burst, trigger ÷ Webhook node";
	const target = `≤ ${targets.peakMemoryVsWebhookNode}`;
	if ('pending' in result) return pendingSection(title, [measure], target, result.pending);

	const of = (path: MemoryPath) =>
		result.bursts.filter((burst) => burst.path === path).sort((a, b) => a.rep - b.rep);
	const rows = MEMORY_PATHS.map((path) => {
		const bursts = of(path);
		const mibs = (pick: (b: (typeof bursts)[number]) => number) =>
			withSpread(
				bursts.map((b) => pick(b) / 2 ** 20),
				0,
			);
		return [
			LABELS[path],
			mibs((b) => b.baselineRssBytes),
			`**${mibs((b) => b.peakRssBytes)}**`,
			mibs((b) => b.peakRssBytes - b.baselineRssBytes),
			withSpread(
				bursts.map((b) => b.answeredPerSecond),
				1,
			),
			withSpread(
				bursts.map((b) => b.perSecond),
				1,
			),
			bursts.map((b) => `${thousands(b.executions)} / ${b.failed}`).join('; '),
		];
	});
	const peak = (path: MemoryPath) => of(path).map((b) => b.peakRssBytes);
	const growth = (path: MemoryPath) => of(path).map((b) => b.peakRssBytes - b.baselineRssBytes);
	const ratio = medianRatio(peak('trigger'), peak('webhook'));
	const met = ratio <= targets.peakMemoryVsWebhookNode;
	const { args } = result;
	const markdown = [
		`n8n ${result.n8nVersion}, one process (sqlite, default execution saving). Each burst: ` +
			`${thousands(args.deliveries)} distinct signed 1 KB deliveries, ${args.concurrency} in flight, to one ` +
			'workflow, in an n8n started for that burst alone (after 20 deliveries of warm-up); the order of the ' +
			`paths alternates, ${args.reps} burst(s) per path. RSS of the n8n process read from /proc every ` +
			`${args.sampleMs} ms from the first delivery until n8n is idle again (every execution done). ` +
			'Median (min–max) in MiB; "Processed/s" counts executions finished (from n8n\'s database).',
		'',
		table(
			[
				'Path',
				'RSS before (MiB)',
				'Peak RSS (MiB)',
				'Growth (MiB)',
				'Answered/s',
				'Processed/s',
				'Executions / non-2xx',
			],
			rows,
		),
		'',
		`Peak RSS, trigger ÷ Webhook node (median of per-pair ratios): **${fixed(ratio, 2)}** ` +
			`(target ${target}: ${verdict(met)}); growth during the burst, trigger ÷ Webhook node: ` +
			`${fixed(medianRatio(growth('trigger'), growth('webhook')), 2)} ` +
			`(${mib(median(growth('trigger')))} against ${mib(median(growth('webhook')))} MiB).`,
	].join('\n');
	return { title, markdown, verdicts: [{ measure, figure: fixed(ratio, 2), target, met }] };
}
