// The page of examples/speed-to-lead-dashboard.json: its Code node's JavaScript, run here with
// what n8n's Code node gives it ($, $now, DateTime of Luxon) over rows the test writes. n8n 2.x
// runs a Code node only in its task runner, which the engine harness does not start: the node as
// a whole, in real n8n, is test/e2e/specs/speed-to-lead-dashboard.e2e.ts. Here: the week's edges
// in the workflow's time zone across a daylight-saving change, the figures, escaping, bad weeks.
import { readFileSync } from 'fs';
import { join } from 'path';

import { DateTime } from 'luxon';

const example = JSON.parse(
	readFileSync(join(__dirname, '../../../examples/speed-to-lead-dashboard.json'), 'utf8'),
);
const code: string = example.nodes.find((node: any) => node.name === 'Build the page').parameters
	.jsCode;

const ZONE = 'Europe/Madrid';

function buildPage(options: {
	week?: string;
	contacts?: object[];
	handOffs?: object[];
	now?: string;
}): { status: number; html: string } {
	const nodes: Record<string, object[]> = {
		'Open the dashboard': [{ query: options.week === undefined ? {} : { week: options.week } }],
		// An empty table still gives the Code node one empty item (Always Output Data).
		'Read first contacts': options.contacts?.length ? options.contacts : [{}],
		'Read hand-offs': options.handOffs?.length ? options.handOffs : [{}],
	};
	const $ = (name: string) => ({
		all: () => nodes[name].map((json) => ({ json })),
		first: () => ({ json: nodes[name][0] }),
	});
	const $now = DateTime.fromISO(options.now ?? '2026-04-01T12:00:00Z').setZone(ZONE);
	const run = new Function('$', '$now', 'DateTime', code);
	return run($, $now, DateTime)[0].json;
}

/** Each advisor row's data attributes. */
function rowsOf(html: string): Array<Record<string, string>> {
	return [...html.matchAll(/<tr (data-[^>]*)>/g)].map((match) =>
		Object.fromEntries(
			[...match[1].matchAll(/data-([a-z0-9-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
		),
	);
}

const contact = (lead: string, advisor: string, since: string, seconds: number) => ({
	lead_id: lead,
	lead_name: `Lead ${lead}`,
	advisor,
	waiting_since: since,
	contacted_at: since,
	response_seconds: seconds,
	channel: 'chat_app',
});

test("weeks end at Monday 00:00 in the workflow's time zone, across the change to summer time", () => {
	// Madrid changes to summer time on Sunday 29 March 2026: week 13 is 167 hours long.
	const contacts = [
		// Monday 23 March 00:30 in Madrid (Sunday in UTC): week 13.
		contact('a', 'ana', '2026-03-22T23:30:00.000Z', 30),
		// Sunday 29 March 23:30 in Madrid, after the change: still week 13.
		contact('b', 'ana', '2026-03-29T21:30:00.000Z', 400),
		// Monday 30 March 00:30 in Madrid (Sunday in UTC): week 14.
		contact('c', 'ana', '2026-03-29T22:30:00.000Z', 1000),
		// Monday 16 March 00:30: week 12, not shown with week 14.
		contact('d', 'ana', '2026-03-15T23:30:00.000Z', 10),
	];
	const page = buildPage({ week: '2026-W14', contacts });
	expect(page.status).toBe(200);
	expect(rowsOf(page.html)).toEqual([
		expect.objectContaining({ week: '2026-W14', received: '1', median: '1000', within15: '0' }),
		expect.objectContaining({ week: '2026-W13', received: '2', median: '215', p90: '400' }),
	]);
	// No week asked: this week on n8n's clock (Wednesday 1 April: week 14).
	expect(rowsOf(buildPage({ contacts }).html)[0].week).toBe('2026-W14');
});

test('per advisor: leads counted once, median of an even count, nearest-rank 90th percentile, the 5 and 15 minute marks, hand-offs by who let the lead wait', () => {
	const since = '2026-04-01T08:00:00.000Z';
	const contacts = [30, 300, 301, 900, 901].map((s, i) => contact(`b${i}`, 'bruno', since, s));
	contacts.push(contact('e1', 'bruno', since, 1500)); // reached after it was escalated
	const handOffs = [
		{
			lead_id: 'p1',
			outcome: 'passed_on',
			advisor: 'carla',
			missed_by: 'bruno',
			waiting_since: since,
		},
		{
			lead_id: 'e1',
			outcome: 'escalated',
			advisor: 'bruno',
			missed_by: 'ana, bruno',
			waiting_since: since,
		},
		{
			lead_id: 'n1',
			outcome: 'not passed on',
			advisor: 'bruno',
			missed_by: 'bruno',
			waiting_since: since,
		},
	];
	const [bruno] = rowsOf(buildPage({ week: '2026-W14', contacts, handOffs }).html);
	expect(bruno).toEqual({
		week: '2026-W14',
		advisor: 'bruno',
		received: '8',
		median: '600.5',
		p90: '1500',
		within5: '2',
		within15: '4',
		'passed-on': '1',
		escalated: '1',
	});
});

test('text from the tables and the URL is escaped; a week with no data says so; a malformed week is a 400', () => {
	const named = contact('x', 'ana <b>&"', '2026-04-01T08:00:00.000Z', 30);
	const page = buildPage({ week: '2026-W14', contacts: [named] });
	expect(page.html).toContain('ana &#60;b&#62;&#38;&#34;');
	expect(page.html).not.toContain('ana <b>');

	const empty = buildPage({ week: '2020-W10' });
	expect(empty.status).toBe(200);
	expect(empty.html).toContain('No first contacts or hand-offs in week 2020-W10.');
	expect(empty.html).toContain('No first contacts or hand-offs in week 2020-W09.');

	for (const week of ['2026-W54', '2025-W53', '2026-48', 'W14', '<script>']) {
		const bad = buildPage({ week });
		expect(bad.status).toBe(400);
		expect(bad.html).toContain('The week must be written like 2026-W48');
		expect(bad.html).not.toContain('<script>');
	}
	// 2026 has 53 ISO weeks.
	expect(buildPage({ week: '2026-W53' }).status).toBe(200);
});
