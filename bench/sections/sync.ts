// 9. Keeping a spreadsheet in sync: the New or Updated Lead event's figures beside their targets.

import { table, verdict } from '../lib/markdown';
import { thousands } from '../lib/stats';
import type { SyncResult } from '../measures/sync';
import type { Section, Verdict } from './section';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function syncSection(result: SyncResult): Section {
	const verdicts: Verdict[] = [];
	const rows = result.rows.map((row) => {
		const expected = Math.max(1, Math.ceil(row.leads / 100));
		const met = row.idleRequests === expected && row.changedRequests === expected;
		verdicts.push({
			measure: `9. Requests per poll, New or Updated Lead, ${thousands(row.leads)} leads`,
			figure: `${row.idleRequests} idle, ${row.changedRequests} with changes`,
			target: `${expected} (⌈N/100⌉)`,
			met,
		});
		return [
			thousands(row.leads),
			`**${row.idleRequests}**`,
			String(row.changedRequests),
			String(expected),
			verdict(met),
			seconds(row.idleMs),
			String(row.items),
			`${row.bytesIdle}`,
			`${row.bytesAfterChanges}`,
			`${row.bytesSettled}`,
		];
	});
	const sizesBounded = result.rows.every((row) => row.bytesSettled === result.rows[0].bytesSettled);
	verdicts.push({
		measure: '9. Position size between polls, independent of the account size',
		figure: result.rows.map((row) => `${row.bytesSettled} B`).join(', '),
		target: 'the same at every size',
		met: sizesBounded,
	});
	const limited = result.limited;
	const ratio = limited.ms / limited.limitOptimalMs;
	verdicts.push({
		measure: `9. One pass over ${thousands(limited.leads)} leads at ${limited.limit}/${limited.windowMs / 1000} s while another client uses ${limited.otherPerWindow} per window, polled each window, ÷ the fastest the key's reserve allows`,
		figure: ratio.toFixed(2),
		target: '≤ 1.1',
		met: limited.ok && ratio <= 1.1,
		note: limited.error,
	});
	const lag = result.lag;
	const markdown = [
		"Engine runs against the sandbox (n8n-core PollContext, durable poll cursors). Requests from the sandbox's own request log. " +
			`Changes: ${result.rows[0]?.items ?? 0} leads qualified before the second poll. Position: JSON bytes n8n stores, between quiet polls, right after the changes (the overlap of the changes made in the seconds before the pass), and after one more poll.`,
		'',
		table(
			[
				'Leads',
				'Requests (idle poll)',
				'Requests (with changes)',
				'⌈N/100⌉',
				'',
				'Idle poll time',
				'Items',
				'Position idle (B)',
				'Right after changes (B)',
				'Next poll (B)',
			],
			rows,
		),
		'',
		table(
			[
				'Leads',
				'Limit',
				'Other client',
				'Polls',
				'Requests',
				'429',
				'Time',
				'Reserve-optimal',
				'Ratio',
			],
			[
				[
					thousands(limited.leads),
					`${limited.limit} / ${limited.windowMs / 1000} s`,
					`${limited.otherPerWindow} per window (${limited.otherRequests} sent)`,
					String(limited.polls),
					String(limited.requests),
					String(limited.answers429),
					seconds(limited.ms),
					seconds(limited.limitOptimalMs),
					`**${ratio.toFixed(2)}**`,
				],
			],
		),
		'',
		`Lag from a change to the item that carries it, polling every ${seconds(lag.pollEveryMs)} over ${thousands(lag.leads)} leads, ${lag.changes} changes at random moments: median ${seconds(lag.medianMs)}, max ${seconds(lag.maxMs)}; ${lag.announcedOnce} of ${lag.changes} announced exactly once. The lag is the wait for the next poll plus its pass; the real-n8n row write is in test/e2e/specs/sync.e2e.ts.`,
	].join('\n');
	return { title: '9. Keeping a spreadsheet in sync: New or Updated Lead', markdown, verdicts };
}
