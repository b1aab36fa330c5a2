// 10. Assigned Lead Not Contacted: requests per poll and stored state.

import { table, verdict } from '../lib/markdown';
import { fixed, thousands } from '../lib/stats';
import type { NotContactedResult, NotContactedRow } from '../measures/notContacted';
import type { Section, Verdict } from './section';

const COUNT_WAIT_TEXT = {
	aroundTheClock: 'around the clock',
	openAllDay: 'opening hours, open',
	closedNow: 'opening hours, closed',
} as const;

function endedText(row: NotContactedRow): string {
	const { silent, aiOnly, contacted } = row.ended;
	if (silent + aiOnly + contacted === 0) return row.poll === 'activation' ? 'activation' : 'none';
	if (row.countWait === 'closedNow')
		return `none: ${silent + aiOnly + contacted} held while closed`;
	return `${silent} no message, ${aiOnly} AI only, ${contacted} human`;
}

export function notContactedSection(result: NotContactedResult): Section {
	const verdicts: Verdict[] = [];
	const rows = result.rows.map((row) => {
		const met = row.requests === row.expected;
		verdicts.push({
			measure: `10. Requests per poll, Assigned Lead Not Contacted (${COUNT_WAIT_TEXT[row.countWait]}), ${thousands(row.assigned)} assigned, ended waits: ${endedText(row)}`,
			figure: String(row.requests),
			target: `${row.expected} (⌈A/100⌉ + checks)`,
			met,
		});
		return [
			COUNT_WAIT_TEXT[row.countWait],
			thousands(row.assigned),
			endedText(row),
			`**${row.requests}**`,
			String(row.expected),
			verdict(met),
			String(row.items),
			`${fixed(row.ms / 1000, 2)} s`,
			thousands(row.stateBytes),
		];
	});
	const perLead = Object.entries(result.bytesPerLead)
		.map(
			([size, bytes]) => `${fixed(bytes, 1)} bytes per assigned lead at ${thousands(Number(size))}`,
		)
		.join(', ');
	const markdown = [
		"Requests counted in the sandbox's own request log; one poll each, in n8n-core's PollContext, the sandbox's clock moved 16 minutes past a 15-minute wait (counts do not vary). " +
			'Expected: ⌈A/100⌉ for A leads in assigned, + 1 per lead whose wait ended (its conversation list), + 1 per conversation with messages after the assignment (here: one for each AI-only and each human lead; a lead with no message since costs 1). ' +
			'Items: the leads announced (no message, AI only). State: bytes of the position n8n stores as the node’s static data after the poll. ' +
			'Count Wait: around the clock; only in opening hours with hours open all day (the same waits end: the same requests expected, the hours cost no request); only in opening hours on a day three days off (closed now: no wait has ended, so the poll only reads the list).',
		'',
		table(
			[
				'Count Wait',
				'Leads in assigned',
				'Ended waits',
				'Requests',
				'Expected',
				'',
				'Items',
				'Poll time',
				'State (bytes)',
			],
			rows,
		),
		'',
		`Stored state: ${perLead}; one lead's wait is ${result.bytesMissed.one} bytes once announced for one advisor, ${result.bytesMissed.two} for two (each further advisor adds its ID).`,
	].join('\n');
	return {
		title: '10. Assigned Lead Not Contacted: requests per poll and stored state',
		markdown,
		verdicts,
	};
}
