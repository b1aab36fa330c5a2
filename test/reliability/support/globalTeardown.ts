import { rmSync } from 'fs';
import { dirname } from 'path';

import { FIGURES_FILE_VARIABLE, SCENARIOS, count, readFigures, type FigureRecord } from './figures';

function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The secret scan is reported by every file; the table shows the sum. */
function secretsRow(rows: FigureRecord[]): { measured: string; pass: boolean } | undefined {
	if (rows.length === 0) return undefined;
	const sum = (name: string) => rows.reduce((total, row) => total + (row.counts?.[name] ?? 0), 0);
	const hits = sum('hits');
	const where = rows
		.filter((row) => (row.counts?.hits ?? 0) > 0)
		.map((row) => `${row.source}: ${row.measured}`);
	return {
		measured:
			`${count(hits)} occurrences of ${count(sum('secrets'))} API keys and signing secrets in ` +
			`${count(sum('texts'))} captured texts (${count(Math.round(sum('characters') / 1024))} KiB of ` +
			`error messages, descriptions, log lines, output items and webhook answers) from ${rows.length} files` +
			(where.length > 0 ? `; found in ${where.join('; ')}` : ''),
		pass: hits === 0 && rows.every((row) => row.pass),
	};
}

/**
 * Prints every figure as one markdown table. The scenarios themselves fail when they miss their
 * figure; a scenario whose file was not run (a focused run) is shown as "not run".
 */
export default function globalTeardown(): void {
	const file = process.env[FIGURES_FILE_VARIABLE];
	if (!file) return;
	const figures = readFigures(file);
	rmSync(dirname(file), { recursive: true, force: true });

	const lines = [
		'',
		'## Reliability and security figures',
		'',
		'| Scenario | Figure it must show | Measured | Result |',
		'|---|---|---|---|',
	];
	const missed: string[] = [];
	for (const scenario of SCENARIOS) {
		const rows = figures.filter((figure) => figure.id === scenario.id);
		let measured: string;
		let pass: boolean;
		if (scenario.id === 'secrets') {
			const summary = secretsRow(rows);
			measured = summary?.measured ?? 'not run';
			pass = summary?.pass ?? false;
		} else if (rows.length === 0) {
			measured = 'not run';
			pass = false;
		} else {
			measured = rows
				.map((row) => (row.source ? `${row.source}: ${row.measured}` : row.measured))
				.join('<br>');
			pass = rows.every((row) => row.pass);
		}
		const result = rows.length === 0 ? 'not run' : pass ? 'met' : '**MISSED**';
		if (rows.length > 0 && !pass) missed.push(scenario.id);
		lines.push(
			`| ${cell(scenario.scenario)} | ${cell(scenario.required)} | ${cell(measured)} | ${result} |`,
		);
	}
	const startedAt = Number(process.env.RELIABILITY_STARTED_AT);
	if (Number.isFinite(startedAt)) {
		lines.push('', `Suite time: ${Math.round((Date.now() - startedAt) / 1000)} s.`);
	}
	if (missed.length > 0) lines.push('', `Missed: ${missed.join(', ')}.`);
	lines.push('');
	process.stdout.write(`${lines.join('\n')}\n`);
}
