// What the bench reads about the n8n process from /proc: asking n8n would add to its load.

import { readFileSync } from 'fs';

/** CPU time (ms) a process has used so far, all its threads together. */
export function cpuMsOf(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	// utime and stime (fields 14 and 15 of the line) in clock ticks of 10 ms.
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident memory of a process now (bytes): what the machine has to give it. */
export function rssBytesOf(pid: number): number {
	const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	if (!line) throw new Error(`No VmRSS for process ${pid}`);
	return Number(line[1]) * 1024;
}

/** Waits until n8n has worked off what it was sent: under 10% CPU for half a second. */
export async function waitUntilIdle(pid: number, timeoutMs = 120_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let before = cpuMsOf(pid);
	while (Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		const now = cpuMsOf(pid);
		if (now - before < 50) return;
		before = now;
	}
	throw new Error(`n8n did not become idle within ${Math.round(timeoutMs / 1000)} s`);
}
