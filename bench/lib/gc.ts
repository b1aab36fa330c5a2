/** A full collection, twice so that finalizers and weak references settle; needs --expose-gc. */
export function collectGarbage(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('Run with node --expose-gc (npm run bench does)');
	gc();
	gc();
}
