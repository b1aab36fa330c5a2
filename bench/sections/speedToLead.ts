// 11. Speed to lead: requests per lead passed on and per lead escalated.

import { table, verdict } from '../lib/markdown';
import { fixed, thousands } from '../lib/stats';
import type { SpeedToLeadRow } from '../measures/speedToLead';
import type { Section, Verdict } from './section';

/** Per lead: its conversation list (the trigger), then 4 to pass it on or 0 to escalate it. */
const TARGET = { 'passed on': 5, escalated: 1 };

export function speedToLeadSection(rows: SpeedToLeadRow[]): Section {
	const verdicts: Verdict[] = [];
	const lines = rows.map((row) => {
		const met = row.ok && row.perLead <= TARGET[row.outcome];
		verdicts.push({
			measure: `11. Requests per lead ${row.outcome}, ${row.perPoll} in one poll, ${thousands(row.assigned)} assigned`,
			figure: fixed(row.perLead, 2),
			target: `≤ ${TARGET[row.outcome]}`,
			met,
			note: row.error,
		});
		return [
			row.outcome,
			String(row.perPoll),
			thousands(row.assigned),
			String(row.listRequests),
			String(row.checkRequests),
			String(row.workflowRequests),
			`**${fixed(row.perLead, 2)}**`,
			`≤ ${TARGET[row.outcome]}`,
			verdict(met),
		];
	});
	const markdown = [
		"examples/reroute-uncontacted-leads.json as shipped: the Polling Trigger's Assigned Lead Not Contacted in n8n-core's PollContext, the sandbox's clock moved 16 minutes past the 15-minute wait, the poll's items run through n8n-core's engine with n8n's own Data Table, Merge, Remove Duplicates and If nodes (tables and de-duplication store in memory); requests counted in the sandbox's own log. " +
			'Each lead wrote in on chat and nobody answered: first its wait ends (passed on: Assign GET + PATCH, the open conversation listed, the notice posted), then the new advisor’s (escalated: a row in n8n, no request). ' +
			'List pages are the poll’s own ⌈A/100⌉ (section 10); per lead = (checks + workflow) ÷ leads.',
		'',
		table(
			[
				'Outcome',
				'Leads in the poll',
				'Assigned (A)',
				'List pages',
				'Checks',
				'Workflow',
				'Per lead',
				'Target',
				'',
			],
			lines,
		),
	].join('\n');
	return {
		title: '11. Speed to lead: requests per lead passed on or escalated',
		markdown,
		verdicts,
	};
}
