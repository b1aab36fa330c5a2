import { ORG_ALPHA, ORG_BETA, ORG_SUSPENDED } from './constants';
import type { SandboxKeys } from './contract';
import { Prng } from './prng';
import type { KeyRole } from './types';

export interface KeyEntry {
	key: string;
	role: KeyRole;
	organizationId: string;
	/** Scope-restricted key: reads only. */
	readOnly: boolean;
	revoked: boolean;
}

/**
 * The API keys of the sandbox, one per role. Values derive from the seed, so a person running
 * the CLI twice with the same seed keeps working credentials.
 */
export class KeyRegistry {
	readonly keys: SandboxKeys;
	private readonly entries = new Map<string, KeyEntry>();

	constructor(seed: number) {
		const rng = new Prng((seed ^ 0x4b455953) >>> 0);
		const make = () => `lcsk_${rng.hex(40)}`;
		this.keys = {
			full: make(),
			revoked: make(),
			readOnly: make(),
			suspended: make(),
			otherOrganization: make(),
		};
		this.restore();
	}

	/** Back to the initial state: only the `revoked` key is revoked. */
	restore(): void {
		this.entries.clear();
		const add = (role: KeyRole, organizationId: string, readOnly = false) =>
			this.entries.set(this.keys[role], {
				key: this.keys[role],
				role,
				organizationId,
				readOnly,
				revoked: role === 'revoked',
			});
		add('full', ORG_ALPHA);
		add('revoked', ORG_ALPHA);
		add('readOnly', ORG_ALPHA, true);
		add('suspended', ORG_SUSPENDED);
		add('otherOrganization', ORG_BETA);
	}

	/** The entry for a presented header value; revoked keys are returned (role is logged). */
	lookup(header: string | string[] | undefined): KeyEntry | undefined {
		if (typeof header !== 'string') return undefined;
		return this.entries.get(header.trim());
	}

	revoke(key: string): boolean {
		const entry = this.entries.get(key);
		if (!entry) return false;
		entry.revoked = true;
		return true;
	}
}
