import { readFileSync } from 'fs';
import { join } from 'path';

import { mergeResults, parseResults, renderResults } from '../../bench/lib/resultsFile';
import type { MachineInfo } from '../../bench/lib/machine';
import type { Section } from '../../bench/sections';

// bench/results.md keeps every section's latest figures: a run of some measures replaces only
// the sections it wrote.

const committed = readFileSync(join(__dirname, '..', '..', 'bench', 'results.md'), 'utf8');

const machine: MachineInfo = {
	cpu: 'Test CPU',
	cores: 2,
	ramGiB: 4,
	os: 'Linux test',
	node: 'v20.0.0',
	n8nCore: '2.41.1',
	n8nWorkflow: '2.41.0',
	n8nNodesBase: '2.41.1',
	date: '2026-12-01T09:30:00.000Z',
};
const stamp = { machine, measures: ['sync'], complete: false };

const syncSection = (figure: string): Section => ({
	title: '9. Keeping a spreadsheet in sync: New or Updated Lead',
	markdown: `| Leads | Requests |\n| --- | --- |\n| 1,000 | ${figure} |`,
	verdicts: [{ measure: '9. Requests per poll, 1,000 leads', figure, target: '10', met: true }],
});

describe('bench/results.md', () => {
	const before = parseResults(committed);

	it('reads every section of the committed file, each with its rows of the summary', () => {
		expect(before.length).toBeGreaterThan(5);
		for (const section of before) {
			expect(section.provenance).toMatch(/^_Measured /);
			expect(section.body.length).toBeGreaterThan(0);
		}
		const rowsInSummary = committed
			.split('## ')[1]
			.split('\n')
			.filter((line) => line.startsWith('| ') && !/^\| (Measure|-)/.test(line)).length;
		expect(before.flatMap((section) => section.summaryRows)).toHaveLength(rowsInSummary);
	});

	it('a run of one measure replaces its section and keeps every other one as it was', () => {
		const once = mergeResults(before, [syncSection('10')], stamp);
		const twice = parseResults(renderResults(mergeResults(once, [syncSection('11')], stamp)));
		const sync = twice.find((section) => section.title.startsWith('9. '))!;
		expect(sync.body).toContain('| 1,000 | 11 |');
		expect(sync.summaryRows).toEqual([['9. Requests per poll, 1,000 leads', '11', '10', 'met']]);
		expect(sync.provenance).toContain('2026-12-01 09:30 UTC by `BENCH_ONLY=sync`');
		const byTitle = (sections: typeof before) =>
			Object.fromEntries(
				sections.filter((s) => !s.title.startsWith('9. ')).map((s) => [s.title, s]),
			);
		expect(byTitle(twice)).toEqual(byTitle(before));
	});

	it('a section the run could only mark pending keeps the figures it had', () => {
		const measured = mergeResults(before, [syncSection('10')], stamp);
		const pending: Section = {
			title: syncSection('').title,
			markdown: '**Pending:** real n8n is not installed',
			verdicts: [],
		};
		const after = mergeResults(measured, [pending], stamp);
		expect(after.find((section) => section.title === pending.title)!.body).toContain('| 10 |');
	});

	it('sections stay in the order of their numbers, "2b and 3b" after 3 and 12 after 9', () => {
		const titles = mergeResults(
			before,
			[{ ...syncSection('10'), title: '12. Requests per assignment' }, syncSection('10')],
			stamp,
		).map((section) => section.title.split('. ')[0]);
		expect(titles.indexOf('2b and 3b')).toBe(titles.indexOf('3') + 1);
		expect(titles.indexOf('12')).toBeGreaterThan(titles.indexOf('11'));
		expect(titles.indexOf('13')).toBe(titles.length - 1);
		const numbers = titles.map((label) => parseInt(label.split(' and ').at(-1)!, 10));
		expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
	});
});
