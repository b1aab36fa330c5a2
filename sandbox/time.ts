// Seeding formats hundreds of thousands of dates; inside a vm context (jest) Date is slow to
// reach, so `iso` formats with plain arithmetic. It returns exactly what toISOString returns.
const { floor } = Math;
const DateClass = Date;
const MS_PER_DAY = 86_400_000;
// Years 1970..9999: the range where the arithmetic below is used.
const MAX_FAST_MS = 253_402_300_800_000;

function pad2(n: number): string {
	return n < 10 ? '0' + n : '' + n;
}

function pad3(n: number): string {
	return n < 10 ? '00' + n : n < 100 ? '0' + n : '' + n;
}

export function iso(ms: number): string {
	if (!(ms >= 0 && ms < MAX_FAST_MS) || ms !== floor(ms)) return new DateClass(ms).toISOString();
	// Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
	const days = floor(ms / MS_PER_DAY);
	let rest = ms - days * MS_PER_DAY;
	const z = days + 719_468;
	const era = floor(z / 146_097);
	const doe = z - era * 146_097;
	const yoe = floor((doe - floor(doe / 1460) + floor(doe / 36_524) - floor(doe / 146_096)) / 365);
	const doy = doe - (365 * yoe + floor(yoe / 4) - floor(yoe / 100));
	const mp = floor((5 * doy + 2) / 153);
	const day = doy - floor((153 * mp + 2) / 5) + 1;
	const month = mp < 10 ? mp + 3 : mp - 9;
	const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
	const hours = floor(rest / 3_600_000);
	rest -= hours * 3_600_000;
	const minutes = floor(rest / 60_000);
	rest -= minutes * 60_000;
	const seconds = floor(rest / 1000);
	const millis = rest - seconds * 1000;
	return (
		year +
		'-' +
		pad2(month) +
		'-' +
		pad2(day) +
		'T' +
		pad2(hours) +
		':' +
		pad2(minutes) +
		':' +
		pad2(seconds) +
		'.' +
		pad3(millis) +
		'Z'
	);
}

/**
 * A new "latest change" time for a record: now (the sandbox's clock), but always after the
 * previous value, so that `updated_at` visibly changes even for two writes within one millisecond.
 */
export function laterThan(previousIso: string, now: number): string {
	const previous = DateClass.parse(previousIso);
	return iso(Number.isNaN(previous) || now > previous ? now : previous + 1);
}
