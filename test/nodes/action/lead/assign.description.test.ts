// Lead → Assign as the editor shows it: what a first run asks for, the hints and help texts, and
// labels short enough for the panel. Checked on the description n8n reads, with n8n's own
// parameter checks.
import {
	NodeHelpers,
	type INode,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { LeadConversations } from '../../../../nodes/LeadConversations/LeadConversations.node';

const description = new LeadConversations().description;
const assignFields = description.properties.filter((property) =>
	property.displayOptions?.show?.operation?.includes('assign'),
);
const field = (name: string) => assignFields.find((property) => property.name === name)!;

/** A node of `typeVersion` with the parameters n8n keeps of those given, defaults added. */
function nodeWith(parameters: Record<string, unknown>, typeVersion = 1.2): INode {
	const node: INode = {
		id: 'assign',
		name: 'Assign',
		type: 'n8n-nodes-lead-conversations.leadConversations',
		typeVersion,
		position: [0, 0],
		parameters: {},
	};
	node.parameters =
		NodeHelpers.getNodeParameters(
			description.properties,
			{ resource: 'lead', operation: 'assign', ...parameters } as never,
			true,
			false,
			node,
			description,
		) ?? {};
	return node;
}

/** The issues n8n's editor marks on a new node with these parameters. */
function issuesOfNewNode(parameters: Record<string, unknown>) {
	const node = nodeWith(parameters);
	return NodeHelpers.getNodeParametersIssues(description.properties, node, description)?.parameters;
}

const advisorValues = () => (field('advisors').options![0] as { values: INodeProperties[] }).values;
const advisorValue = (name: string) => advisorValues().find((value) => value.name === name)!;

describe('Lead → Assign in the editor', () => {
	test('a new node says how to fill Advisors, naming it, instead of n8n\'s generic "At least 1 field is required"', () => {
		const lead = { __rl: true, mode: 'id', value: 'lead_1' };
		expect(issuesOfNewNode({ lead })).toBeUndefined();
		const notice = field('advisorsEmptyNotice');
		expect(notice.displayName).toMatch(/^Add at least one advisor with Add Advisor/);
		const shown = (parameters: Record<string, unknown>, typeVersion = 1.2) =>
			NodeHelpers.displayParameter(
				{ resource: 'lead', operation: 'assign', rosterSource: 'advisors', ...parameters },
				notice,
				nodeWith({}, typeVersion),
				description,
			);
		// Nodes saved at 1 and 1.1 keep n8n's own count rule, as they were.
		expect(shown({}, 1.1)).toBe(false);
		expect(shown({})).toBe(true);
		expect(shown({ advisors: {} })).toBe(true);
		expect(shown({ advisors: { advisor: [] } })).toBe(true);
		expect(shown({ advisors: { advisor: [{ userId: '' }] } })).toBe(false);
		expect(shown({ rosterSource: 'expression' })).toBe(false);
		const oneAdvisor = { advisor: [{ userId: 'user_ana' }] };
		expect(issuesOfNewNode({ lead, advisors: oneAdvisor })).toBeUndefined();
	});

	test('an advisor without a User ID is marked too', () => {
		const advisor = field('advisors').options![0] as { values: INodeProperties[] };
		expect(advisor.values.find((value) => value.name === 'userId')?.required).toBe(true);
	});

	test('Roster Rows shows the expression to use in a hint the editor always displays', () => {
		expect(field('rosterRows').hint).toContain("$('Roster').all()");
	});

	test('Roster Source, Advisors and Turns explain themselves; option descriptions stay short', () => {
		for (const name of ['rosterSource', 'advisors', 'turns']) {
			expect(field(name).description?.length).toBeGreaterThan(40);
		}
		for (const name of ['rosterSource', 'turns']) {
			for (const option of field(name).options as INodePropertyOptions[]) {
				expect(option.description!.length).toBeLessThanOrEqual(60);
			}
		}
		expect(field('turns').description).toMatch(/not for queue mode/);
	});

	test('option labels fit the panel: 26 characters at most', () => {
		const options = field('options').options as INodeProperties[];
		expect(options.map((option) => option.displayName)).toEqual([
			'Pass On to Another Advisor',
			'Reassign Assigned Leads',
			'Skip Advisors',
			'Time Zone',
			'When Everyone Is Full',
		]);
		for (const option of options) expect(option.displayName.length).toBeLessThanOrEqual(26);
	});

	test('advisor rules offer the spec values: lead channels with API, the four intents', () => {
		const rules = advisorValue('rule').options as INodeProperties[];
		const values = (name: string) =>
			(rules.find((value) => value.name === name)!.options as INodePropertyOptions[]).map(
				(option) => option.value,
			);
		expect(values('channels').sort()).toEqual(
			[
				'api',
				'chat_app',
				'email',
				'marketplace',
				'phone',
				'social_a',
				'social_b',
				'web_form',
			].sort(),
		);
		expect(values('intents').sort()).toEqual(
			['browsing', 'purchase_30_days', 'purchase_90_days', 'unknown'].sort(),
		);
	});

	test('an advisor row shows User ID, Weight and Away; the rule is under Add Rule, the shift under Add Shift or Capacity', () => {
		expect(advisorValues().map((value) => value.name)).toEqual([
			'userId',
			'weight',
			'away',
			'rule',
			'shift',
		]);
		expect(advisorValue('rule')).toMatchObject({ type: 'collection', placeholder: 'Add Rule' });
		expect((advisorValue('rule').options as INodeProperties[]).map((o) => o.name)).toEqual([
			'channels',
			'intents',
			'minScore',
			'vehicleWords',
		]);
		expect((advisorValue('shift').options as INodeProperties[]).map((o) => o.name)).toEqual([
			'hours',
			'timeZone',
			'capacity',
		]);
	});

	test('Weight shows whole numbers as whole: no fixed decimals', () => {
		expect(advisorValue('weight').typeOptions?.numberPrecision).toBeUndefined();
	});

	test('n8n drops rule fields a description no longer has, so nodes saved before 1.2 keep theirs', () => {
		const saved = {
			advisors: { advisor: [{ userId: 'user_a', channels: ['phone'], minScore: 50 }] },
		};
		const advisorOf = (typeVersion: number) =>
			(nodeWith(saved, typeVersion).parameters.advisors as { advisor: Record<string, unknown>[] })
				.advisor[0];
		expect(advisorOf(1.2)).not.toHaveProperty('channels');
		expect(advisorOf(1.2)).not.toHaveProperty('minScore');
		for (const version of [1, 1.1]) {
			expect(advisorOf(version)).toMatchObject({ channels: ['phone'], minScore: 50 });
		}
	});
});
