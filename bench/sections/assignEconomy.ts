// 12. Assignment request economy.

import { table, verdict } from '../lib/markdown';
import { thousands } from '../lib/stats';
import type { AssignEconomyRow } from '../measures/assignEconomy';
import type { Section, Verdict } from './section';

const NAMES = {
	assign: 'Lead → Assign (example now)',
	old: 'previous example (Return All of assigned leads)',
	capacity: 'Lead → Assign, roster with Capacity',
};

/** Lead requests a run should send: a fixed 2, or the list of assigned leads besides. */
function expectedRequests(row: AssignEconomyRow): number {
	const listPages = Math.max(1, Math.ceil(row.assignedInAccount / 100));
	if (row.workflow === 'assign') return 2;
	return row.workflow === 'old' ? listPages + 1 : listPages + 2;
}

export function assignEconomySection(rows: AssignEconomyRow[]): Section {
	const verdicts: Verdict[] = [];
	const lines = rows.map((row) => {
		const expected = expectedRequests(row);
		if (row.workflow === 'capacity') {
			verdicts.push({
				measure: `12. Requests per assignment with Capacity, ${thousands(row.assignedInAccount)} assigned leads`,
				figure: String(row.assignRequests),
				target: `⌈A/100⌉ + 2 = ${expected}`,
				met: row.ok && row.assignRequests === expected,
				note: row.error,
			});
		}
		if (row.workflow === 'assign') {
			const met = row.ok && row.assignRequests === 2 && row.listReads === 0;
			verdicts.push({
				measure: `12. Requests per new assignment, Lead → Assign, ${thousands(row.leads)} leads in the account`,
				figure: String(row.assignRequests),
				target: '2 (GET + PATCH), no list read',
				met,
				note: row.error,
			});
		}
		return [
			NAMES[row.workflow],
			thousands(row.leads),
			thousands(row.assignedInAccount),
			`**${row.assignRequests.toFixed(1)}**`,
			String(expected),
			row.allRequests.toFixed(1),
			String(row.listReads),
			verdict(row.ok),
		];
	});
	const markdown = [
		"Requests per qualified lead from the sandbox's own request log, each workflow run through n8n-core's engine from the trigger's item " +
			'(the new example with its Data Table rows pinned: the engine has no n8n Data Tables). "Lead requests" counts the requests to /leads (the assignment); ' +
			'"all" adds the example’s read of the lead’s open conversations (the bench’s leads have none, so no message is sent). The previous example reads every lead in status assigned: ⌈A/100⌉ + 1 lead requests. ' +
			'With a Capacity column in the roster, Assign reads them too, once per run of the node: ⌈A/100⌉ + 2 for a run of one lead (one lead per row, as each assignment adds to A).',
		'',
		table(
			[
				'Workflow',
				'Leads in account',
				'Assigned (A)',
				'Lead requests',
				'Expected',
				'All requests',
				'List reads',
				'Assigned',
			],
			lines,
		),
	].join('\n');
	return { title: '12. Requests per assignment', markdown, verdicts };
}
