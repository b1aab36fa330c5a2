// 12. Assignment request economy.

import { table, verdict } from '../lib/markdown';
import { thousands } from '../lib/stats';
import type { AssignEconomyRow } from '../measures/assignEconomy';
import type { Section, Verdict } from './section';

const NAMES = {
	assign: 'Lead → Assign (example now)',
	old: 'previous example (Return All of assigned leads)',
};

export function assignEconomySection(rows: AssignEconomyRow[]): Section {
	const verdicts: Verdict[] = [];
	const lines = rows.map((row) => {
		const expected =
			row.workflow === 'assign' ? 2 : Math.max(1, Math.ceil(row.assignedInAccount / 100)) + 1;
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
			'"all" adds the example’s read of the lead’s open conversations (the bench’s leads have none, so no message is sent). The previous example reads every lead in status assigned: ⌈A/100⌉ + 1 lead requests.',
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
