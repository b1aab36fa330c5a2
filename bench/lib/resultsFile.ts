// bench/results.md holds the latest figures of every section: a run of some measures
// (BENCH_ONLY) replaces the sections it wrote and keeps the others as they were, each section
// saying under its title when, how and on what machine it was measured. The summary table is
// rebuilt from every section's rows.

import type { MachineInfo } from './machine';
import type { Section } from '../sections';
import { verdict } from './markdown';

export interface StoredSection {
	title: string;
	/** The italic line under the title: when, by which run, on what machine. */
	provenance: string;
	body: string;
	/** This section's rows of the summary table, cells as written. */
	summaryRows: string[][];
}

export interface RunStamp {
	machine: MachineInfo;
	measures: readonly string[];
	/** Every measure ran (a full `npm run bench`). */
	complete: boolean;
}

export const SUMMARY_HEADER = ['Measure', 'Figure', 'Target', ''];
const PROVENANCE = /^_Measured .*_$/;

/** "2026-11-25T10:35:29.884Z" → "2026-11-25 10:35 UTC". */
const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function provenanceOf({ machine, measures, complete }: RunStamp): string {
	const when = utc(machine.date);
	const run = complete ? 'a full run' : `\`BENCH_ONLY=${measures.join(',')}\``;
	return (
		`_Measured ${when} by ${run}; ${machine.cpu}, ${machine.cores} cores, ${machine.ramGiB} GiB RAM, ` +
		`${machine.os}; Node ${machine.node}; n8n-core ${machine.n8nCore}, n8n-workflow ` +
		`${machine.n8nWorkflow}, n8n-nodes-base ${machine.n8nNodesBase}._`
	);
}

/** "2b and 3b. Return All in the real n8n" → ["2b", "3b"]. */
export function labelsOf(title: string): string[] {
	return title.split('. ')[0].split(' and ');
}

/** The section a summary row belongs to: its label ("4a."), else that label's number ("4"). */
function ownerOf(row: string[], titles: string[]): string | undefined {
	const label = /^(\d+[a-z]?)\./.exec(row[0] ?? '')?.[1];
	if (!label) return undefined;
	return (
		titles.find((title) => labelsOf(title).includes(label)) ??
		titles.find((title) => labelsOf(title).includes(label.replace(/[a-z]$/, '')))
	);
}

/** Cells of a markdown table row; `\|` stays inside its cell. */
function cellsOf(line: string): string[] {
	return line
		.trim()
		.replace(/^\||\|$/g, '')
		.split(/(?<!\\)\|/)
		.map((cell) => cell.trim());
}

/**
 * The sections of a results file. One written before sections carried their own provenance
 * gets it from the file's header (its "- Machine", "- Node" and "- Date" lines).
 */
export function parseResults(text: string): StoredSection[] {
	const blocks = text.split(/^## /m);
	const header = blocks.shift() ?? '';
	const headerLine = (name: string) =>
		new RegExp(`^- ${name}: (.*)$`, 'm').exec(header)?.[1] ??
		new RegExp(`^- (${name} .*)$`, 'm').exec(header)?.[1];
	const [date, mode] = (headerLine('Date') ?? '').split('; mode: ');
	const run = mode?.startsWith('full') ? 'a full run' : `a run (${mode})`;
	const legacy = date
		? `_Measured ${utc(date)} by ${run}; ${headerLine('Machine')}; ${headerLine('Node')}._`
		: '_Measured at an unknown date._';

	let summary: string[][] = [];
	const sections: StoredSection[] = [];
	for (const block of blocks) {
		const [title, ...rest] = block.split('\n');
		const lines = rest.join('\n').trim().split('\n');
		if (title.trim() === 'Summary') {
			summary = lines
				.filter((line) => line.startsWith('|'))
				.slice(2)
				.map(cellsOf);
			continue;
		}
		const stamped = PROVENANCE.test(lines[0] ?? '');
		sections.push({
			title: title.trim(),
			provenance: stamped ? lines[0] : legacy,
			body: (stamped ? lines.slice(1) : lines).join('\n').trim(),
			summaryRows: [],
		});
	}
	const titles = sections.map((section) => section.title);
	for (const row of summary) {
		const owner = sections.find((section) => section.title === ownerOf(row, titles));
		if (!owner) throw new Error(`bench/results.md: no section for the summary row "${row[0]}"`);
		owner.summaryRows.push(row);
	}
	return sections;
}

const isPending = (section: Section) => section.markdown.startsWith('**Pending:**');

/** Sorts by the last label: 1, 2, 3, "2b and 3b", 4, …, 10 (numbers as numbers). */
function orderOf(title: string): [number, string] {
	const label = labelsOf(title).at(-1)!;
	const match = /^(\d+)([a-z]?)$/.exec(label);
	return match ? [Number(match[1]), match[2]] : [Number.MAX_SAFE_INTEGER, label];
}

/**
 * The previous sections with this run's in place of those of the same title. A section this
 * run could only mark pending (real n8n missing, say) keeps the figures it had.
 */
export function mergeResults(
	previous: StoredSection[],
	fresh: Section[],
	stamp: RunStamp,
): StoredSection[] {
	const merged = new Map(previous.map((section) => [section.title, section]));
	for (const section of fresh) {
		if (isPending(section) && merged.has(section.title)) continue;
		merged.set(section.title, {
			title: section.title,
			provenance: provenanceOf(stamp),
			body: section.markdown.trim(),
			summaryRows: section.verdicts.map((v) => [
				v.measure,
				v.figure,
				v.target,
				verdict(v.met) + (v.note ? ` (${v.note})` : ''),
			]),
		});
	}
	return [...merged.values()].sort((a, b) => {
		const [numberA, letterA] = orderOf(a.title);
		const [numberB, letterB] = orderOf(b.title);
		return numberA - numberB || letterA.localeCompare(letterB);
	});
}

/** The whole file (before formatting). */
export function renderResults(sections: StoredSection[]): string {
	const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
	const summary = [
		line(SUMMARY_HEADER),
		line(SUMMARY_HEADER.map(() => '---')),
		...sections.flatMap((section) => section.summaryRows.map(line)),
	];
	return [
		'# Benchmark results',
		'',
		'Written by `npm run bench` (bench/index.ts); see bench/README.md for the method. Each section',
		'holds the figures of the last run that measured it, named in its first line: a run of some',
		'measures (`BENCH_ONLY=…`) replaces their sections and keeps the others.',
		'',
		'## Summary',
		'',
		...summary,
		...sections.flatMap((section) => [
			'',
			`## ${section.title}`,
			'',
			section.provenance,
			'',
			section.body,
		]),
		'',
	].join('\n');
}
