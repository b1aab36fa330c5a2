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

/** The parameters n8n gives a new node, and the issues its editor marks on them. */
function issuesOfNewNode(parameters: Record<string, unknown>) {
	const node: INode = {
		id: 'assign',
		name: 'Assign',
		type: 'n8n-nodes-lead-conversations.leadConversations',
		typeVersion: 1,
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
	return NodeHelpers.getNodeParametersIssues(description.properties, node, description)?.parameters;
}

describe('Lead → Assign in the editor', () => {
	test('a new node says how to fill Advisors, naming it, instead of n8n\'s generic "At least 1 field is required"', () => {
		const lead = { __rl: true, mode: 'id', value: 'lead_1' };
		expect(issuesOfNewNode({ lead })).toBeUndefined();
		const notice = field('advisorsEmptyNotice');
		expect(notice.displayName).toMatch(/^Add at least one advisor with Add Advisor/);
		const shown = (parameters: Record<string, unknown>) =>
			NodeHelpers.displayParameter(
				{ resource: 'lead', operation: 'assign', rosterSource: 'advisors', ...parameters },
				notice,
				null,
				description,
			);
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
		]);
		for (const option of options) expect(option.displayName.length).toBeLessThanOrEqual(26);
	});

	test('advisor rules offer the spec values: lead channels with API, the four intents', () => {
		const advisor = field('advisors').options![0] as { values: INodeProperties[] };
		const values = (name: string) =>
			(advisor.values.find((value) => value.name === name)!.options as INodePropertyOptions[]).map(
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
});
