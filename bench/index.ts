// `npm run bench`: the package against the physical limit of the service and against what a user
// would otherwise build (n8n's HTTP Request node, a bare fetch loop), side by side in one run.
// Prints the tables and writes them, with the machine and versions, to bench/results.md, where
// a run of some measures (BENCH_ONLY=memory,economy) replaces only their sections.
// BENCH_QUICK=1 for small sizes while developing (written to bench/tmp/results.md).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { config, MEASURES, QUICK, selectedMeasures, type MeasureName } from './config';
import type { ClientName } from './lib/clients';
import { buildForChildren, REPO_ROOT } from './lib/build';
import { machineInfo, type MachineInfo } from './lib/machine';
import { formatMarkdown } from './lib/format';
import { mergeResults, parseResults, renderResults } from './lib/resultsFile';
import { runInChild, startChild, useBuiltWorker } from './lib/processes';
import type { AssignEconomyRow } from './measures/assignEconomy';
import type { ContactedRow } from './measures/contacted';
import type { EconomyRow } from './measures/economy';
import type { DataServerReady, MemoryResult } from './measures/memory';
import { n8nMemory, type N8nMemoryResult } from './measures/n8nMemory';
import type { NotContactedResult } from './measures/notContacted';
import type { OverheadResult } from './measures/overhead';
import type { PollEconomyResult } from './measures/pollEconomy';
import type { RateLimitedClient, RateLimitedResult } from './measures/rateLimited';
import { realN8n, type RealN8nResult } from './measures/realN8n';
import type { SignatureRow } from './measures/signature';
import type { SpeedToLeadRow } from './measures/speedToLead';
import type { SyncResult } from './measures/sync';
import { realN8nUnavailable } from './n8n/install';
import { measureQueueThroughput, type QueueThroughputResult } from './queue/throughput';
import {
	assignEconomySection,
	contactedSection,
	economySection,
	memorySection,
	n8nMemorySection,
	notContactedSection,
	overheadSection,
	pollEconomySection,
	rateLimitedSection,
	returnAllInN8nSection,
	queueSection,
	signatureSection,
	speedToLeadSection,
	syncSection,
	versusHttpSection,
	webhooksSection,
	type Section,
} from './sections';

const RESULTS_FILE = join(REPO_ROOT, 'bench', 'results.md');
const QUICK_RESULTS_FILE = join(REPO_ROOT, 'bench', 'tmp', 'results.md');

function log(line: string): void {
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

interface Results {
	economy?: EconomyRow[];
	overhead?: OverheadResult;
	rateLimited?: RateLimitedResult[];
	memory?: MemoryResult[];
	signature?: SignatureRow[];
	realN8n?: RealN8nResult | { pending: string };
	n8nMemory?: N8nMemoryResult | { pending: string };
	pollEconomy?: PollEconomyResult;
	queue?: QueueThroughputResult | { pending: string };
	sync?: SyncResult;
	assignEconomy?: AssignEconomyRow[];
	notContacted?: NotContactedResult;
	contacted?: ContactedRow[];
	speedToLead?: SpeedToLeadRow[];
}

async function runRateLimited(): Promise<RateLimitedResult[]> {
	const settings = config.rateLimited;
	const results: RateLimitedResult[] = [];
	for (const scenario of ['a', 'b'] as const) {
		for (const client of ['node', 'httpDefault', 'httpCareful'] as RateLimitedClient[]) {
			log(`4${scenario}: ${client}, ${settings.reps} run(s)`);
			results.push(
				await runInChild<RateLimitedResult>('rateLimited', {
					scenario,
					client,
					reps: settings.reps,
					leads: scenario === 'a' ? settings.leadsA : settings.leadsB,
					limit: settings.limit,
					windowMs: settings.windowMs,
					otherPerWindow: settings.otherPerWindow,
					startOffsetMs: settings.startOffsetMs,
					careful: settings.careful,
				}),
			);
		}
	}
	return results;
}

async function runMemory(): Promise<MemoryResult[]> {
	const results: MemoryResult[] = [];
	for (const leads of config.memory.sizes) {
		const server = await startChild<DataServerReady>('dataServer', { leads });
		try {
			for (let rep = 0; rep < config.memory.reps; rep++) {
				for (const client of config.memory.clients as ClientName[]) {
					log(`5: ${client}, ${leads} leads, run ${rep + 1} of ${config.memory.reps}`);
					results.push(
						await runInChild<MemoryResult>('memory', {
							client,
							leads,
							target: server.ready.target,
						}),
					);
				}
			}
		} finally {
			await server.stop();
		}
	}
	return results;
}

/** A measure in the real n8n: pending, with the reason, when n8n is missing or the run fails. */
async function inRealN8n<T>(
	what: string,
	measure: () => Promise<T>,
): Promise<T | { pending: string }> {
	const unavailable = realN8nUnavailable();
	if (unavailable) return { pending: unavailable };
	try {
		return await measure();
	} catch (error) {
		log(`${what} failed: ${(error as Error).stack ?? String(error)}`);
		return { pending: `the run in ${what} failed: ${(error as Error).message.split('\n')[0]}` };
	}
}

async function runMeasure(name: MeasureName, results: Results): Promise<void> {
	const started = Date.now();
	switch (name) {
		case 'economy':
			log('1: request economy');
			results.economy = await runInChild<EconomyRow[]>('economy', config.economy);
			break;
		case 'overhead':
			log(
				`2+3: overhead, ${config.overhead.reps} repetitions of ${config.overhead.clients.join(', ')}`,
			);
			results.overhead = await runInChild<OverheadResult>('overhead', config.overhead);
			break;
		case 'rateLimited':
			results.rateLimited = await runRateLimited();
			break;
		case 'memory':
			results.memory = await runMemory();
			break;
		case 'signature':
			log('6a: signature verification');
			results.signature = await runInChild<SignatureRow[]>('signature', config.signature);
			break;
		case 'pollEconomy':
			log('7: polling trigger request economy');
			results.pollEconomy = await runInChild<PollEconomyResult>('pollEconomy', config.pollEconomy);
			break;
		case 'assignEconomy':
			log('12: requests per assignment');
			results.assignEconomy = await runInChild<AssignEconomyRow[]>(
				'assignEconomy',
				config.assignEconomy,
				// The previous example reads every assigned lead on each run: slow at 100,000.
				{ timeoutMs: 1_200_000 },
			);
			break;
		case 'notContacted':
			log('10: Assigned Lead Not Contacted, requests per poll');
			results.notContacted = await runInChild<NotContactedResult>(
				'notContacted',
				config.notContacted,
			);
			break;
		case 'contacted':
			log('13: Assigned Lead Contacted, requests per poll');
			results.contacted = await runInChild<ContactedRow[]>('contacted', config.contacted);
			break;
		case 'speedToLead':
			log('11: speed to lead, requests per lead passed on or escalated');
			results.speedToLead = await runInChild<SpeedToLeadRow[]>('speedToLead', config.speedToLead);
			break;
		case 'realN8n':
			log('2b, 3b and 6b: in the real n8n');
			results.realN8n = await inRealN8n('real n8n', () => realN8n(config.realN8n, log));
			break;
		case 'n8nMemory':
			log("6c: n8n's memory during a burst of deliveries");
			results.n8nMemory = await inRealN8n('real n8n', () => n8nMemory(config.n8nMemory, log));
			break;
		case 'sync':
			log('9: keeping a spreadsheet in sync (New or Updated Lead)');
			results.sync = await runInChild<SyncResult>('sync', config.sync, { timeoutMs: 1_800_000 });
			break;
		case 'queue':
			log('8: deliveries per second through queue mode');
			results.queue = await inRealN8n('queue mode', () =>
				measureQueueThroughput(config.queue, log),
			);
			break;
	}
	log(`${name} done in ${Math.round((Date.now() - started) / 1000)} s`);
}

function sections(results: Results): Section[] {
	const list: Section[] = [];
	if (results.economy) list.push(economySection(results.economy));
	if (results.overhead) list.push(overheadSection(results.overhead));
	if (results.overhead || results.rateLimited) {
		list.push(versusHttpSection(results.overhead, results.economy, results.rateLimited));
	}
	if (results.realN8n) list.push(returnAllInN8nSection(results.realN8n));
	if (results.rateLimited) list.push(rateLimitedSection(results.rateLimited, config.rateLimited));
	if (results.memory) list.push(memorySection(results.memory));
	if (results.signature) list.push(signatureSection(results.signature));
	if (results.realN8n) list.push(webhooksSection(results.realN8n));
	if (results.n8nMemory) list.push(n8nMemorySection(results.n8nMemory));
	if (results.pollEconomy) list.push(pollEconomySection(results.pollEconomy));
	if (results.queue) list.push(queueSection(results.queue));
	if (results.sync) list.push(syncSection(results.sync));
	if (results.assignEconomy) list.push(assignEconomySection(results.assignEconomy));
	if (results.notContacted) list.push(notContactedSection(results.notContacted));
	if (results.contacted) list.push(contactedSection(results.contacted));
	if (results.speedToLead) list.push(speedToLeadSection(results.speedToLead));
	return list;
}

/** The raw figures of a run, as written to bench/tmp. */
interface RawRun {
	machine: MachineInfo;
	measures?: MeasureName[];
	quick?: boolean;
	results: Results;
}

async function measure(measures: MeasureName[]): Promise<Results> {
	// n8n-core writes an instance config under the user folder: keep it out of $HOME.
	const userFolder = mkdtempSync(join(tmpdir(), 'lc-bench-n8n-user-'));
	process.env.N8N_USER_FOLDER = userFolder;
	const results: Results = {};
	try {
		log('transpiling for the child processes');
		useBuiltWorker(buildForChildren());
		for (const name of measures) await runMeasure(name, results);
	} finally {
		rmSync(userFolder, { recursive: true, force: true });
	}
	return results;
}

async function main(): Promise<void> {
	const started = Date.now();
	// BENCH_FROM=bench/tmp/results-partial.json writes the tables of that run again, measuring nothing.
	const from = process.env.BENCH_FROM
		? (JSON.parse(readFileSync(process.env.BENCH_FROM, 'utf8')) as RawRun)
		: undefined;
	const measures = from
		? (from.measures ?? MEASURES.filter((name) => from.results[name] !== undefined))
		: selectedMeasures();
	const quick = from ? from.quick === true : QUICK;
	const results = from ? from.results : await measure(measures);
	const machine = from ? from.machine : machineInfo();
	const totalSeconds = Math.round((Date.now() - started) / 1000);
	const built = sections(results);
	const stamp = { machine, measures, complete: measures.length === MEASURES.length };
	process.stdout.write(`\n${renderResults(mergeResults([], built, stamp))}`);
	// A quick run's figures are not for quoting: they go to bench/tmp (not committed) alone.
	// Any other run replaces its own sections of bench/results.md and keeps the others.
	const resultsFile = quick ? QUICK_RESULTS_FILE : RESULTS_FILE;
	const previous =
		quick || !existsSync(resultsFile) ? [] : parseResults(readFileSync(resultsFile, 'utf8'));
	mkdirSync(join(REPO_ROOT, 'bench', 'tmp'), { recursive: true });
	writeFileSync(
		resultsFile,
		await formatMarkdown(renderResults(mergeResults(previous, built, stamp))),
	);
	// The raw figures of this run, for a closer look (and BENCH_FROM).
	if (!from) {
		const raw: RawRun = { machine, measures, quick, results };
		const name = stamp.complete && !quick ? 'results.json' : 'results-partial.json';
		writeFileSync(join(REPO_ROOT, 'bench', 'tmp', name), JSON.stringify(raw, null, 2));
	}
	log(`written to ${resultsFile} (${totalSeconds} s in all)`);
}

main().catch((error: Error) => {
	log(`failed: ${error.stack ?? error.message}`);
	process.exit(1);
});
