// Small statistics for noisy shared machines: medians, never means, and ratios taken run by run.

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function min(values: number[]): number {
	return values.length === 0 ? Number.NaN : Math.min(...values);
}

export function max(values: number[]): number {
	return values.length === 0 ? Number.NaN : Math.max(...values);
}

/** Median of per-run ratios: each ratio compares two figures taken in the same repetition. */
export function medianRatio(numerators: number[], denominators: number[]): number {
	return median(numerators.map((value, index) => value / denominators[index]));
}

/** "1.23 (1.10–1.31)": median with the spread of the repetitions. */
export function withSpread(values: number[], digits: number): string {
	if (values.length <= 1) return fixed(median(values), digits);
	return `${fixed(median(values), digits)} (${fixed(min(values), digits)}–${fixed(max(values), digits)})`;
}

export function fixed(value: number, digits: number): string {
	if (!Number.isFinite(value)) return 'n/a';
	return value.toFixed(digits);
}

export function mib(bytes: number): string {
	return fixed(bytes / 2 ** 20, 1);
}

export function thousands(value: number): string {
	return Math.round(value).toLocaleString('en-US');
}
