// Return All under faults: 2,000 leads read page by page while a fifth of the GETs fail, and a
// cursor that expires part-way through the list.
//
// The node's back-off waits between retries are jumped over instead of slept (test/nodes/clock.ts):
// over 200 failed GETs they made up most of the half minute this file took in real time, and
// what it shows (complete lists, no lead twice) does not depend on them. Every attempt still
// goes over real HTTP; the time the figure reports is real time.

import type { IDataObject } from 'n8n-workflow';

import {
	runActionNode,
	startTestSandbox,
	type RunResult,
	type RunningSandbox,
} from '../../harness/engine';
import { MAX_TRANSIENT_RETRIES } from '../../nodes/shared/transport/retryPolicy';
import { useJumpingClock } from '../nodes/clock';
import { NODE, credentialsOf, inBatches, scaled, seconds } from './support/common';
import { count, recordFigure } from './support/figures';
import { SecretTrace } from './support/trace';

const LEADS = 2000;
const RUNS = scaled(50);
const FAULT_SHARE = 0.2;
/** Three independent faults (500, 503, dropped connection) that together hit 20% of the GETs. */
const EACH_FAULT = 1 - (1 - FAULT_SHARE) ** (1 / 3);

const RETURN_ALL = {
	resource: 'lead',
	operation: 'getAll',
	returnAll: true,
	filters: {},
	options: {},
};

let sandbox: RunningSandbox;
useJumpingClock();
const trace = new SecretTrace('returnAll.reliability.ts');

beforeAll(async () => {
	// The rate limit is not what this file is about: it is set out of reach.
	sandbox = await startTestSandbox({ leads: LEADS, rateLimit: 1_000_000 });
	trace.addApiKeys(sandbox);
});

afterAll(async () => {
	await sandbox.close();
});

function leadIdsOf(result: RunResult): string[] {
	return result.output(NODE).map((item) => String(item.json.id));
}

function storedLeadIds(): Set<string> {
	return new Set(
		sandbox.control
			.state()
			.leads.filter((lead) => lead.organization_id === 'org_alpha')
			.map((lead) => lead.id),
	);
}

describe('Return All of 2,000 leads while 20% of the GETs fail', () => {
	it(`yields exactly the 2,000 stored leads, each once, in every one of ${RUNS} runs`, async () => {
		sandbox.control.reset({ leads: LEADS });
		const expected = storedLeadIds();
		expect(expected.size).toBe(LEADS);
		for (const status of [500, 503]) {
			sandbox.control.injectFaults({
				kind: 'status',
				status,
				probability: EACH_FAULT,
				method: 'GET',
				pathPrefix: '/v1/leads',
			});
		}
		sandbox.control.injectFaults({
			kind: 'drop',
			probability: EACH_FAULT,
			method: 'GET',
			pathPrefix: '/v1/leads',
		});
		const startedAt = performance.now();

		const outcomes = await inBatches(
			Array.from({ length: RUNS }, (_, run) => async () => {
				const result = await runActionNode(RETURN_ALL, credentialsOf(sandbox));
				trace.addRun(`Return All run ${run + 1}`, result);
				const ids = leadIdsOf(result);
				const unique = new Set(ids);
				const missing = [...expected].filter((id) => !unique.has(id)).length;
				const exact =
					result.status === 'success' &&
					ids.length === LEADS &&
					unique.size === LEADS &&
					missing === 0;
				return {
					exact,
					items: ids.length,
					twice: ids.length - unique.size,
					missing,
					error: result.error?.message,
				};
			}),
			4,
		);
		sandbox.control.clearFaults();

		const gets = sandbox.control
			.requests()
			.filter((request) => request.method === 'GET' && request.path === '/v1/leads');
		const answered500 = gets.filter((request) => request.status === 500).length;
		const answered503 = gets.filter((request) => request.status === 503).length;
		const dropped = gets.filter((request) => request.status === 0).length;
		const faults = answered500 + answered503 + dropped;
		const exactRuns = outcomes.filter((outcome) => outcome.exact).length;
		// What the retry policy can promise at this fault rate: a page is lost when all of its
		// attempts fail, a run when any of its pages is lost.
		const attempts = MAX_TRANSIENT_RETRIES + 1;
		const runSurvives = (1 - FAULT_SHARE ** attempts) ** (LEADS / 100);
		const failures = outcomes.filter((outcome) => !outcome.exact);
		const missingTotal = outcomes.reduce((sum, outcome) => sum + outcome.missing, 0);
		const twiceTotal = outcomes.reduce((sum, outcome) => sum + outcome.twice, 0);

		recordFigure({
			id: 'returnAllUnderFaults',
			pass: exactRuns === RUNS && RUNS === 50,
			measured:
				`${exactRuns}/${RUNS} runs yielded exactly ${count(LEADS)} unique leads; ` +
				`no run output a lead twice (${twiceTotal}) or a partial list (${failures.filter((f) => f.items > 0).length}); ` +
				`${count(faults)} of ${count(gets.length)} GETs failed (${((100 * faults) / gets.length).toFixed(1)}%: ` +
				`${answered500}×500, ${answered503}×503, ${dropped} dropped); ${seconds(performance.now() - startedAt)}; ` +
				`with ${attempts} attempts per request a run of ${LEADS / 100} pages survives with p = ${(100 * runSurvives).toFixed(1)}%, ` +
				`all ${RUNS} runs with p = ${(100 * runSurvives ** RUNS).toFixed(0)}%` +
				(failures.length > 0
					? `; ${failures.length} runs failed with an error and no output after one page failed on all ${attempts} attempts: ` +
						[...new Set(failures.map((failure) => failure.error))].join(' / ')
					: ''),
		});

		expect(failures).toEqual([]);
		expect(twiceTotal).toBe(0);
		expect(missingTotal).toBe(0);
		// The scenario really was hostile: about a fifth of the GETs failed.
		expect(faults / gets.length).toBeGreaterThan(0.15);
		expect(faults / gets.length).toBeLessThan(0.25);
	});
});

describe('Return All when the service answers a cursor with 400 (expired) mid-way', () => {
	const PAGES = LEADS / 100;
	const cases = [2, 8, 15, PAGES];
	const measured: string[] = [];
	let allClear = true;

	/** The first `page - 1` requests pass, the request for `page` gets the expired-cursor answer. */
	function expireCursorAtPage(page: number): void {
		sandbox.control.reset({ leads: LEADS });
		sandbox.control.injectFaults({
			kind: 'delay',
			delayMs: 0,
			count: page - 1,
			method: 'GET',
			pathPrefix: '/v1/leads',
		});
		sandbox.control.injectFaults({ kind: 'badCursor', count: 1, pathPrefix: '/v1/leads' });
	}

	it.each(cases)('the run stops with an error naming page %i and outputs no lead', async (page) => {
		expireCursorAtPage(page);
		const result = await runActionNode(RETURN_ALL, credentialsOf(sandbox));
		trace.addRun(`expired cursor at page ${page}`, result);
		const requests = sandbox.control.requests().filter((request) => request.path === '/v1/leads');

		const message = result.error?.message ?? '';
		const clear =
			result.status === 'error' &&
			message.includes(`page ${page}`) &&
			message.includes(`${(page - 1) * 100} records`) &&
			/cursor/i.test(`${message} ${result.error?.description ?? ''}`) &&
			result.output(NODE).length === 0 &&
			requests.length === page;
		allClear &&= clear;
		measured.push(
			`page ${page}: ${result.status}, ${result.output(NODE).length} items, "${message}"`,
		);

		expect(result.status).toBe('error');
		expect(message).toContain(`page ${page}`);
		expect(message).toContain(`${(page - 1) * 100} records`);
		expect(`${message} ${result.error?.description ?? ''}`).toMatch(/cursor/i);
		expect(result.error?.httpCode).toBe('400');
		expect(result.output(NODE)).toEqual([]);
		// Not retried (a 400 will not pass) and not restarted silently from the first page.
		expect(requests).toHaveLength(page);
	});

	it('with On Error "Continue", the item becomes one error item and no lead of the partial list is output', async () => {
		expireCursorAtPage(8);
		const result = await runActionNode(RETURN_ALL, credentialsOf(sandbox), {
			continueOnFail: true,
		});
		trace.addRun('expired cursor, continue on fail', result);
		const items = result.output(NODE).map((item) => item.json);
		const partialOutput = items.filter((item) => item.id !== undefined).length;
		allClear &&= items.length === 1 && partialOutput === 0;
		measured.push(`continue on fail: ${items.length} item(s), ${partialOutput} leads`);

		expect(result.status).toBe('success');
		expect(items).toHaveLength(1);
		expect(items[0]).toEqual(expect.objectContaining({ error: expect.stringContaining('page 8') }));
		expect(partialOutput).toBe(0);
	});

	it('with Only New Since Last Run, a failed list keeps the position, so the next run returns every lead', async () => {
		const parameters = { ...RETURN_ALL, options: { onlyNewSinceLastRun: true } };
		expireCursorAtPage(8);
		const failed = await runActionNode(parameters, credentialsOf(sandbox), { mode: 'trigger' });
		trace.addRun('expired cursor, only new', failed);
		sandbox.control.clearFaults();
		const next = await runActionNode(parameters, credentialsOf(sandbox), {
			mode: 'trigger',
			staticData: failed.staticData as IDataObject,
		});
		trace.addRun('rerun after expired cursor, only new', next);
		const kept = failed.status === 'error' && next.output(NODE).length === LEADS;
		allClear &&= kept;
		measured.push(
			`only new since last run: failed run stored no position, the next run returned ${next.output(NODE).length} leads`,
		);

		expect(failed.status).toBe('error');
		expect(next.status).toBe('success');
		expect(new Set(leadIdsOf(next)).size).toBe(LEADS);
	});

	afterAll(() => {
		recordFigure({
			id: 'expiredCursor',
			pass: allClear && measured.length === cases.length + 2,
			measured: measured.join('; '),
		});
	});
});

it('shows the API keys in no output item, error or log line of this file', () => {
	expect(trace.scan()).toEqual([]);
});
