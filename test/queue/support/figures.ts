// Every test of the suite prints the figure it measured and appends it to one JSON-lines file;
// globalTeardown prints them all as one table at the end, passed or failed alike (a figure is
// written before the test asserts).

import { appendFileSync, existsSync, readFileSync } from 'fs';

export const FIGURES_FILE_VARIABLE = 'LC_QUEUE_FIGURES_FILE';

export interface Figure {
	point: string;
	test: string;
	figure: string;
	target: string;
}

export function recordFigure(figure: Figure): void {
	process.stdout.write(
		`\n[queue figure] ${figure.point} ${figure.test}: ${figure.figure} (target: ${figure.target})\n`,
	);
	const file = process.env[FIGURES_FILE_VARIABLE];
	if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
}

export function readFigures(file: string): Figure[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as Figure);
}
