// Every invalid value of every field the node sends, per the tables of the service
// specification (and the node's own options that shape a request). Each case runs three items
// with On Error "Continue": every item must come back as an error naming the field and the
// item, and the service must receive nothing, since all of these can be checked locally.

import type { IDataObject } from 'n8n-workflow';

import { runActionNode, startTestSandbox, type RunningSandbox } from '../../harness/engine';
import { NODE, credentialsOf } from './support/common';
import { count, recordFigure } from './support/figures';
import { CASES, base, parametersFor, type SeededIds } from './support/invalidInputCases';
import { SecretTrace } from './support/trace';

const ITEMS = 3;

let sandbox: RunningSandbox;
const trace = new SecretTrace('invalidInput.reliability.ts');
const ids: SeededIds = { lead: '', conversation: '', agent: '' };

beforeAll(async () => {
	sandbox = await startTestSandbox();
	trace.addApiKeys(sandbox);
	const state = sandbox.control.state();
	ids.lead = state.leads.find((lead) => lead.organization_id === 'org_alpha')!.id;
	ids.conversation = state.conversations.find(
		(c) => c.organization_id === 'org_alpha' && c.status === 'open' && c.channel !== 'phone',
	)!.id;
	ids.agent = state.agents.find((agent) => agent.organization_id === 'org_alpha')!.id;
});

afterAll(async () => {
	await sandbox.close();
});

interface Outcome {
	label: string;
	field: string;
	requests: number;
	namesField: boolean;
	namesEveryItem: boolean;
	message: string;
}

const outcomes: Outcome[] = [];
const operations = [...new Set(CASES.map((testCase) => testCase.operation))];

it.each(operations)(
	'the valid parameters of %s run and reach the service (the baseline of the cases)',
	async (operation) => {
		sandbox.control.clearRequests();
		const result = await runActionNode(base(operation, ids), credentialsOf(sandbox));
		trace.addRun(`valid ${operation}`, result);
		expect(result.error?.message).toBeUndefined();
		expect(sandbox.control.requests().length).toBeGreaterThan(0);
	},
);

const rows = CASES.flatMap((testCase) =>
	testCase.values.map(
		(value) =>
			[
				`${testCase.operation} ${testCase.parameter} = ${JSON.stringify(value)}`,
				testCase,
				value,
			] as const,
	),
);

it.each(rows)(
	'%s is refused for every item, naming the field and the item, with nothing sent',
	async (label, testCase, value) => {
		sandbox.control.clearRequests();
		const result = await runActionNode(
			parametersFor(testCase, value, ids),
			credentialsOf(sandbox),
			{
				continueOnFail: true,
				inputItems: Array.from({ length: ITEMS }, () => ({ value }) as IDataObject),
				typeVersion: testCase.typeVersion,
			},
		);
		trace.addRun(label, result);
		const items = result.output(NODE).map((item) => item.json);
		const requests = sandbox.control.requests().length;
		const messages = items.map((item) => `${String(item.error ?? '')}`);
		const outcome: Outcome = {
			label,
			field: testCase.field,
			requests,
			namesField:
				items.length === ITEMS && messages.every((message) => message.includes(testCase.field)),
			namesEveryItem:
				items.length === ITEMS &&
				messages.every((message, index) => message.includes(`item ${index}`)),
			message: messages[0] ?? result.error?.message ?? '',
		};
		outcomes.push(outcome);

		expect({
			requests,
			namesField: outcome.namesField,
			namesEveryItem: outcome.namesEveryItem,
			message: outcome.message,
		}).toEqual({
			requests: 0,
			namesField: true,
			namesEveryItem: true,
			message: outcome.message,
		});
	},
);

afterAll(() => {
	const fields = new Set(CASES.map((testCase) => `${testCase.operation} ${testCase.parameter}`));
	const refusedLocally = outcomes.filter((outcome) => outcome.requests === 0).length;
	const named = outcomes.filter((outcome) => outcome.namesField && outcome.namesEveryItem).length;
	const sent = outcomes.filter((outcome) => outcome.requests > 0);
	const unnamedLocal = outcomes.filter(
		(outcome) => outcome.requests === 0 && !(outcome.namesField && outcome.namesEveryItem),
	);
	/** "lead.create channel = "fax"" grouped by field: lead.create channel ("fax", "whatsapp") */
	const grouped = (list: Outcome[]) => {
		const byField = new Map<string, string[]>();
		for (const outcome of list) {
			const [field, value] = outcome.label.split(' = ');
			byField.set(field, [...(byField.get(field) ?? []), value]);
		}
		return [...byField].map(([field, values]) => `${field} (${values.join(', ')})`).join('; ');
	};
	recordFigure({
		id: 'invalidInput',
		pass:
			outcomes.length === rows.length &&
			refusedLocally === outcomes.length &&
			named === outcomes.length,
		measured:
			`${outcomes.length} invalid values of ${fields.size} fields in ${operations.length} operations, ${ITEMS} items each: ` +
			`${named}/${outcomes.length} refused with an error naming the field and every item, ${refusedLocally}/${outcomes.length} with nothing sent` +
			(sent.length
				? `; ${sent.length} values were sent to the service (${count(sent.reduce((sum, o) => sum + o.requests, 0))} requests) and came back as its 400, ` +
					`naming the service's field but not the item: ${grouped(sent)}`
				: '') +
			(unnamedLocal.length
				? `; refused locally without naming field and item: ${unnamedLocal.map((o) => `${o.label} ("${o.message}")`).join(', ')}`
				: ''),
	});
});

it('shows the API keys in no output item, error or log line of this file', () => {
	expect(trace.scan()).toEqual([]);
});
