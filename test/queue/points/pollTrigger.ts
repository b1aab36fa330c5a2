import { waitFor } from '../../../harness/real-n8n/processes';
import { recordFigure } from '../support/figures';
import { sleep } from '../support/runs';
import { announcedBy, newLeadPolls } from '../support/service';
import { IDS, POLL_SECONDS, suite } from '../support/suite';

// Point 3, the other path that reaches zero: the polling trigger. n8n polls on the leader main only
// and stores the position with the poll that starts a run; the runs go to the workers. Leads
// are created and qualified between polls and while main restarts; each change must start
// exactly one announcement, the baseline none.

const POLL_WAIT_MS = (POLL_SECONDS * 3 + 30) * 1000;

async function announcedAll(kind: string, ids: string[]): Promise<void> {
	await waitFor(
		`${kind} to announce ${ids.join(', ')}`,
		() => (ids.every((id) => announcedBy(kind).has(id)) ? true : undefined),
		{ timeoutMs: POLL_WAIT_MS, intervalMs: 500 },
	);
}

function newLeadOfAlpha(): string {
	const lead = suite.sandbox.control
		.state()
		.leads.find((l) => l.organization_id === 'org_alpha' && l.status === 'new');
	return lead!.id;
}

export function pollTriggerSpecs(): void {
	it('polling trigger on the leader main: every new lead and every lead reaching qualified announced exactly once, across a restart of main, nothing on the baseline poll', async () => {
		const { cluster, sandbox } = suite;
		const create = () => sandbox.control.createChannelLead({ channel: 'web_form' }).id;
		const qualify = () => {
			const id = newLeadOfAlpha();
			sandbox.control.qualifyLead(id, 90);
			return id;
		};
		const baseline = { lead: create(), qualified: qualify() };
		await cluster.activate(IDS.pollNew);
		await cluster.activate(IDS.pollQualified);
		// Between polls: the next scheduled poll announces them.
		const first = { leads: [create(), create(), create()], qualified: [qualify()] };
		await announcedAll('pollNew', first.leads);
		await announcedAll('pollQualified', first.qualified);
		// While main is down: its activation poll after the restart announces them.
		await cluster.main.stop();
		const whileDown = { leads: [create(), create()], qualified: [qualify()] };
		await cluster.main.start();
		await announcedAll('pollNew', whileDown.leads);
		await announcedAll('pollQualified', whileDown.qualified);
		const after = { leads: [create()], qualified: [qualify()] };
		await announcedAll('pollNew', after.leads);
		await announcedAll('pollQualified', after.qualified);
		// One more poll with nothing new: it must announce nothing again.
		const polls = newLeadPolls();
		await waitFor('one more poll', () => (newLeadPolls() > polls ? true : undefined), {
			timeoutMs: POLL_WAIT_MS,
			intervalMs: 500,
		});
		await sleep(5_000);
		await cluster.deactivate(IDS.pollNew);
		await cluster.deactivate(IDS.pollQualified);

		const leads = announcedBy('pollNew');
		const qualified = announcedBy('pollQualified');
		const expectedLeads = [...first.leads, ...whileDown.leads, ...after.leads];
		const expectedQualified = [...first.qualified, ...whileDown.qualified, ...after.qualified];
		const twice = [...leads.values(), ...qualified.values()].filter((n) => n > 1).length;
		const counts = await Promise.all(
			[IDS.pollNew, IDS.pollQualified].map((id) => cluster.db.executionCounts(id)),
		);
		recordFigure({
			point: '3',
			test: 'polling trigger: changes between polls and across a restart of main',
			figure: `new leads announced ${expectedLeads.filter((id) => leads.get(id) === 1).length}/${expectedLeads.length} once, qualified ${expectedQualified.filter((id) => qualified.get(id) === 1).length}/${expectedQualified.length} once; announced twice ${twice}; baseline lead/qualified announced ${leads.has(baseline.lead)}/${qualified.has(baseline.qualified)}; executions ${JSON.stringify(counts)}; poll every ${POLL_SECONDS} s`,
			target: 'each change exactly once, nothing from the baseline',
		});
		for (const id of expectedLeads) expect(leads.get(id)).toBe(1);
		for (const id of expectedQualified) expect(qualified.get(id)).toBe(1);
		expect(twice).toBe(0);
		expect(leads.has(baseline.lead)).toBe(false);
		expect(qualified.has(baseline.qualified)).toBe(false);
		for (const count of counts) expect(Object.keys(count)).toEqual(['success']);
	});
}
