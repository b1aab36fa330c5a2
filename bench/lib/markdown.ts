/** A markdown table; cells are written as given. */
export function table(header: string[], rows: string[][]): string {
	const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
	return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** "✅ met" / "❌ missed" beside a figure. */
export function verdict(met: boolean): string {
	return met ? 'met' : '**missed**';
}
