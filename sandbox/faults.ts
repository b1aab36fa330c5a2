import type { FaultSpec } from './contract';

const KINDS = ['status', 'delay', 'drop', 'dropAfterProcessing', 'badCursor'];

interface ActiveFault {
	spec: FaultSpec;
	/** Left for count-based faults; undefined for probability-based ones. */
	remaining?: number;
}

/**
 * Injected faults for the /v1 interface. Faults are tried in the order they were injected; the
 * first one that matches a request applies to it (one fault per request).
 */
export class FaultInjector {
	private faults: ActiveFault[] = [];

	constructor(private readonly random: () => number = Math.random) {}

	add(spec: FaultSpec): void {
		if (!spec || !KINDS.includes(spec.kind)) {
			throw new Error(`kind: must be one of ${KINDS.join(', ')}`);
		}
		if (spec.probability !== undefined && !(spec.probability >= 0 && spec.probability <= 1)) {
			throw new Error('probability: must be between 0 and 1');
		}
		if (spec.count !== undefined && !(Number.isInteger(spec.count) && spec.count >= 1)) {
			throw new Error('count: must be a positive integer');
		}
		if (
			spec.status !== undefined &&
			!(Number.isInteger(spec.status) && spec.status >= 100 && spec.status <= 599)
		) {
			throw new Error('status: must be an HTTP status code');
		}
		if (spec.delayMs !== undefined && !(spec.delayMs >= 0))
			throw new Error('delayMs: must be >= 0');
		const copy: FaultSpec = { ...spec };
		this.faults.push({
			spec: copy,
			remaining: copy.probability === undefined ? (copy.count ?? 1) : undefined,
		});
	}

	clear(): void {
		this.faults = [];
	}

	list(): FaultSpec[] {
		return this.faults.map((fault) => ({
			...fault.spec,
			...(fault.remaining !== undefined ? { count: fault.remaining } : {}),
		}));
	}

	/** The fault applying to this request, if any (count-based faults are consumed). */
	take(method: string, path: string, hasCursor: boolean): FaultSpec | undefined {
		for (let i = 0; i < this.faults.length; i++) {
			const fault = this.faults[i];
			const spec = fault.spec;
			if (spec.method && spec.method.toUpperCase() !== method) continue;
			if (spec.pathPrefix && !path.startsWith(spec.pathPrefix)) continue;
			if (spec.kind === 'badCursor' && !hasCursor) continue;
			if (fault.remaining === undefined) {
				if (this.random() < (spec.probability ?? 0)) return spec;
				continue;
			}
			fault.remaining--;
			if (fault.remaining <= 0) this.faults.splice(i, 1);
			return spec;
		}
		return undefined;
	}
}
