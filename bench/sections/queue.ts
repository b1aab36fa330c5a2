// 8. Deliveries per second through n8n's queue mode (two webhook processes, two workers).

import { table } from '../lib/markdown';
import { fixed, median, medianRatio, withSpread } from '../lib/stats';
import type { QueueThroughputResult } from '../queue/throughput';
import { pendingSection, type Pending, type Section, type Verdict } from './section';

export function queueSection(result: QueueThroughputResult | Pending): Section {
	const title = '8. Deliveries per second through queue mode';
	if ('pending' in result) {
		return pendingSection(
			title,
			['8. Deliveries/s through the queue-mode cluster'],
			'measured',
			result.pending,
		);
	}
	const rows = result.paths.map((path) => {
		const answered = path.bursts.map((b) => b.answeredPerSecond);
		const perSecond = path.bursts.map((b) => b.perSecond);
		const deliveries = path.bursts.reduce((sum, b) => sum + b.deliveries, 0);
		const failed = path.bursts.reduce((sum, b) => sum + b.failed, 0);
		const runs = path.bursts.reduce((sum, b) => sum + b.runs, 0);
		const spread = path.bursts.map((b) => b.perProcess.join(' / ')).join('; ');
		return [
			path.path,
			String(deliveries),
			withSpread(answered, 1),
			`**${withSpread(perSecond, 1)}**`,
			`${runs} / ${failed}`,
			spread,
		];
	});
	const markdown = [
		'n8n 2.41.1 in queue mode on this machine: one main, two workers, two webhook processes behind ' +
			'nginx (TLS, round robin; `N8N_WEBHOOK_URL`), Redis and Postgres, all on loopback ' +
			`(cluster ready in ${fixed(result.startupSeconds, 0)} s). Bursts of signed deliveries, 8 in flight, ` +
			'to the balancer, the paths taking turns (order rotated each round); "runs/s" counts a delivery once ' +
			'its run has reported from a worker, from the first delivery sent to the last run (median and range ' +
			'of the bursts). Both paths end in the same "Record run" node (an HTTP Request to a local sink).',
		'',
		table(
			[
				'Path',
				'Deliveries',
				'Answered/s',
				'Runs/s (whole path)',
				'Runs / failed answers',
				'Answered per webhook process',
			],
			rows,
		),
		'',
		`Median runs/s: ${result.paths.map((p) => `${p.path} ${fixed(median(p.bursts.map((b) => b.perSecond)), 1)}`).join('; ')}. ` +
			`${result.paths[0].path} ÷ ${result.paths[1].path}, runs/s (median of the rounds' ratios): ` +
			`**${fixed(
				medianRatio(
					result.paths[0].bursts.map((b) => b.perSecond),
					result.paths[1].bursts.map((b) => b.perSecond),
				),
				2,
			)}**.`,
		'',
		sharedKeyMarkdown(result),
	].join('\n');
	return { title, markdown, verdicts: sharedKeyVerdicts(result) };
}

/** The shared-key targets: within 1.25 × pages ÷ limit × window, at most one 429 per window. */
function sharedKeyVerdicts(result: QueueThroughputResult): Verdict[] {
	return result.sharedKey.flatMap((r) => [
		{
			measure: `8b. ${r.runs} × 2,500 leads over 2 workers (${r.jobsPerWorker} at once each): time ÷ pages ÷ limit × window`,
			figure: fixed(r.ratio, 2),
			target: '≤ 1.25',
			met: r.ratio <= 1.25 && r.complete === r.runs,
		},
		{
			measure: `8b. ${r.runs} × 2,500 leads: most 429s in one window`,
			figure: String(r.worstWindow),
			target: '≤ 1',
			met: r.worstWindow <= 1,
		},
	]);
}

/** Return All on one key shared by both workers: time against pages ÷ limit × window. */
function sharedKeyMarkdown(result: QueueThroughputResult): string {
	const rows = result.sharedKey.map((r) => [
		`${r.runs} × 2,500 leads, ${r.jobsPerWorker} jobs per worker`,
		`${r.complete} / ${r.runs}`,
		String(r.pages),
		`${r.throttled} (most in one window ${r.worstWindow})`,
		`${fixed(r.seconds, 1)} s`,
		`**${fixed(r.ratio, 2)} ×**`,
		r.perWindow.join(' '),
	]);
	return [
		'Return All on one API key shared by both workers, 20 requests per 2 s (the sandbox), the ' +
			"workers sharing nothing but the service's answers. Time from the first page asked to the " +
			'last, against pages ÷ limit × window (target ≤ 1.25 ×, at most one 429 per window).',
		'',
		table(
			[
				'Runs',
				'Every lead once',
				'Pages',
				'429s',
				'Time',
				'÷ pages ÷ limit × window',
				'Requests per window',
			],
			rows,
		),
	].join('\n');
}
