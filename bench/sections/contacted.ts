// 13. Assigned Lead Contacted: requests per poll and stored state.

import { table, verdict } from '../lib/markdown';
import { fixed, thousands } from '../lib/stats';
import type { ContactedRow } from '../measures/contacted';
import type { Section, Verdict } from './section';

function sinceText(row: ContactedRow): string {
	if (row.poll === 'activation') return 'activation';
	if (row.poll === 'assigned') return `${row.leads} newly assigned`;
	if (row.leads === 0) return 'no waiting lead active';
	return `${row.leads} active (${Math.ceil(row.leads / 2)} AI only, ${Math.floor(row.leads / 2)} advisor)`;
}

export function contactedSection(rows: ContactedRow[]): Section {
	const verdicts: Verdict[] = [];
	const lines = rows.map((row) => {
		const met = row.requests === row.expected;
		verdicts.push({
			measure: `13. Requests per poll, Assigned Lead Contacted, ${thousands(row.assigned)} assigned, ${sinceText(row)}`,
			figure: String(row.requests),
			target: `${row.expected} (⌈A/100⌉ + checks)`,
			met,
		});
		return [
			thousands(row.assigned),
			sinceText(row),
			`**${row.requests}**`,
			String(row.expected),
			verdict(met),
			String(row.items),
			`${fixed(row.ms / 1000, 2)} s`,
			thousands(row.stateBytes),
		];
	});
	const markdown = [
		"Requests counted in the sandbox's own request log; one poll each, in n8n-core's PollContext, the sandbox's clock moved 1 minute between polls. " +
			'Expected: ⌈A/100⌉ for A leads in assigned, + 1 per wait the poll sees for the first time (its conversation list: the assignment is activity), + 2 per waiting lead whose last_activity_at moved since the poll before (its conversation list and the one conversation with a message since). A lead waiting with no new activity costs nothing. ' +
			'Items: the leads announced (their advisor wrote). State: bytes of the position n8n stores as the node’s static data after the poll.',
		'',
		table(
			[
				'Leads in assigned',
				'Since the poll before',
				'Requests',
				'Expected',
				'',
				'Items',
				'Poll time',
				'State (bytes)',
			],
			lines,
		),
	].join('\n');
	return {
		title: '13. Assigned Lead Contacted: requests per poll and stored state',
		markdown,
		verdicts,
	};
}
