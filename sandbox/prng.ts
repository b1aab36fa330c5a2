// Small seeded PRNG (mulberry32): the same seed always yields the same data set.

// Module-level aliases: inside a vm context (as under jest) every access to a global such as
// `Math` is slow, and seeding 100,000 leads calls these millions of times.
const imul = Math.imul;
const floor = Math.floor;

export class Prng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0 || 0x9e3779b9;
	}

	/** Uniform float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = imul(t ^ (t >>> 15), t | 1);
		t ^= t + imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** Integer in [min, max], both inclusive. */
	int(min: number, max: number): number {
		return min + floor(this.next() * (max - min + 1));
	}

	pick<T>(items: readonly T[]): T {
		return items[floor(this.next() * items.length)];
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	hex(length: number): string {
		let out = '';
		while (out.length < length) {
			out += floor(this.next() * 4294967296)
				.toString(16)
				.padStart(8, '0');
		}
		return out.slice(0, length);
	}
}
