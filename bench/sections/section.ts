// What every section returns: its markdown and the verdicts the summary lists.

export interface Verdict {
	measure: string;
	figure: string;
	target: string;
	met: boolean;
	/** Why it was missed, when known. */
	note?: string;
}

export interface Section {
	title: string;
	markdown: string;
	verdicts: Verdict[];
}

export type Pending = { pending: string };

/** A section whose measure could not run here, with the reason in place of each figure. */
export function pendingSection(
	title: string,
	measures: string[],
	target: string,
	pending: string,
): Section {
	return {
		title,
		markdown: `**Pending:** ${pending}`,
		verdicts: measures.map((measure) => ({
			measure,
			figure: 'pending',
			target,
			met: false,
			note: pending,
		})),
	};
}
