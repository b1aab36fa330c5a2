// 7. Polling trigger request economy.

import { table, verdict } from '../lib/markdown';
import { thousands } from '../lib/stats';
import type { PollEconomyResult } from '../measures/pollEconomy';
import type { Section, Verdict } from './section';

const EVENT_NAMES = {
	newLead: 'New Lead',
	qualified: 'Lead Reached a Status (qualified)',
	transferred: 'Conversation Handed to a Human',
};

export function pollEconomySection(result: PollEconomyResult): Section {
	const verdicts: Verdict[] = [];
	const rows = result.rows.map((row) => {
		const met = row.requests === row.expected && row.items === row.changes;
		verdicts.push({
			measure: `7. Requests per poll, ${EVENT_NAMES[row.event]}, ${thousands(row.leads)} leads, ${row.changes} changes`,
			figure: String(row.requests),
			target: `${row.expected} (smallest possible)`,
			met,
		});
		return [
			EVENT_NAMES[row.event],
			thousands(row.leads),
			row.inStatus === undefined ? '' : thousands(row.inStatus),
			String(row.changes),
			`**${row.requests}**`,
			String(row.expected),
			verdict(met),
			String(row.items),
			thousands(row.stateBytes),
		];
	});
	const limited = result.rateLimited;
	const limitedMet = limited.ok && limited.answers429 === 0;
	verdicts.push({
		measure: `7. 429 answers in one status poll of ${thousands(limited.inStatus)} records at ${limited.limit} requests / ${limited.windowMs} ms`,
		figure: String(limited.answers429),
		target: '0, poll succeeds',
		met: limitedMet,
		note: limited.error,
	});
	const markdown = [
		"Requests counted in the sandbox's own request log; one poll each, in n8n-core's PollContext (counts do not vary). " +
			'New Lead: ⌈(k + leads at the mark)/100⌉, whatever the account size. Status events: ⌈n/100⌉ for the n records now in the status. ' +
			'State: bytes of the position n8n stores as the node’s static data after the poll.',
		'',
		table(
			[
				'Event',
				'Leads in account',
				'n in status',
				'Changes k',
				'Requests',
				'Smallest possible',
				'',
				'Items',
				'State (bytes)',
			],
			rows,
		),
		'',
		table(
			['Leads', 'n qualified', 'Rate limit', 'Requests', '429 answers', 'Poll', 'Time'],
			[
				[
					thousands(limited.leads),
					thousands(limited.inStatus),
					`${limited.limit} / ${limited.windowMs} ms`,
					String(limited.requests),
					`**${limited.answers429}**`,
					limited.ok ? 'succeeded' : `failed: ${limited.error ?? ''}`,
					`${(limited.ms / 1000).toFixed(1)} s`,
				],
			],
		),
	].join('\n');
	return { title: '7. Polling trigger: requests per poll and stored state', markdown, verdicts };
}
