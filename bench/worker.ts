// Entry point of a benchmark child process: `worker.ts <task> <json args>`. Runs one task and
// reports its result to the parent over IPC. A long-lived task (a data server) reports `ready`
// and keeps running until the parent stops it.

import { assignEconomy } from './measures/assignEconomy';
import { contacted } from './measures/contacted';
import { economy } from './measures/economy';
import { dataServer, memory } from './measures/memory';
import { notContacted } from './measures/notContacted';
import { overhead } from './measures/overhead';
import { pollEconomy } from './measures/pollEconomy';
import { rateLimited } from './measures/rateLimited';
import { signature } from './measures/signature';
import { speedToLead } from './measures/speedToLead';
import { sync } from './measures/sync';

type Task = (args: never) => Promise<unknown>;

const tasks: Record<string, Task> = {
	economy,
	overhead,
	rateLimited,
	memory,
	signature,
	pollEconomy,
	sync,
	assignEconomy,
	notContacted,
	contacted,
	speedToLead,
};
const longLived: Record<string, Task> = { dataServer };

function report(message: unknown): Promise<void> {
	return new Promise((resolve) => {
		if (!process.send) {
			console.log(JSON.stringify(message));
			resolve();
			return;
		}
		process.send(message, () => resolve());
	});
}

async function main(): Promise<void> {
	const [name, rawArgs] = process.argv.slice(2);
	const args = JSON.parse(rawArgs ?? '{}') as never;
	if (longLived[name]) {
		const ready = await longLived[name](args);
		await report({ ok: true, ready });
		return;
	}
	const task = tasks[name];
	if (!task) throw new Error(`Unknown benchmark task "${name}"`);
	const result = await task(args);
	await report({ ok: true, result });
	process.exit(0);
}

main().catch(async (error: Error) => {
	await report({ ok: false, error: error.stack ?? String(error) });
	process.exit(1);
});
