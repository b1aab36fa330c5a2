// The workflow editor-review.mjs opens in the editor: one node of each kind the review looks at,
// with the parameters a person would have set. Names are what the checks look for.

const PACKAGE = 'n8n-nodes-lead-conversations';

/** The nodes of the review workflow; names are what the checks look for. */
export const NODES = {
	trigger: 'Lead Conversations Trigger',
	poll: 'Qualified leads',
	getMany: 'Get many leads',
	sendMessage: 'Send a message',
	updateAgent: 'Update an agent',
	verify: 'Verify a delivery',
	manual: 'When clicking Execute workflow',
	// The name n8n gives a new Polling Trigger: the README's picture shows it.
	sync: 'Lead Conversations Polling Trigger',
	assign: 'Assign an advisor',
};

/** The workflow, its nodes using the given API and Signing Secret credentials ({ id, name }). */
export function reviewWorkflow(apiCredential, secretCredential) {
	const api = { leadConversationsApi: apiCredential };
	const node = (id, name, type, typeVersion, position, parameters, credentials) => ({
		id: `e0000000-0000-4000-8000-00000000000${id}`,
		name,
		type,
		typeVersion,
		position,
		parameters,
		...(credentials ? { credentials } : {}),
	});
	return {
		name: 'Editor review',
		nodes: [
			node(
				1,
				NODES.trigger,
				`${PACKAGE}.leadConversationsTrigger`,
				2,
				[0, 0],
				{
					events: ['lead.qualified'],
					subscription: 'manual',
					options: {
						intents: ['purchase_30_days'],
						channels: ['api'],
						maxEventAge: 60,
						output: 'currentLeadFlat',
					},
				},
				{ ...api, leadConversationsSigningSecretApi: secretCredential },
			),
			node(
				2,
				NODES.poll,
				`${PACKAGE}.leadConversationsPollTrigger`,
				1,
				[0, 300],
				{
					event: 'leadStatus',
					statuses: ['qualified'],
					filters: { intents: ['purchase_30_days'], channels: ['api'] },
				},
				api,
			),
			node(3, NODES.manual, 'n8n-nodes-base.manualTrigger', 1, [0, 600], {}),
			node(
				4,
				NODES.getMany,
				`${PACKAGE}.leadConversations`,
				1.1,
				[300, 600],
				{
					resource: 'lead',
					operation: 'getAll',
					returnAll: true,
					filters: { intent: 'purchase_30_days', scoreMin: 60 },
					options: { onlyNewSinceLastRun: true, output: 'flat' },
				},
				api,
			),
			node(
				5,
				NODES.updateAgent,
				`${PACKAGE}.leadConversations`,
				1.1,
				[300, 800],
				{ resource: 'agent', operation: 'update', agent: { __rl: true, mode: 'list', value: '' } },
				api,
			),
			node(
				6,
				NODES.sendMessage,
				`${PACKAGE}.leadConversations`,
				1.1,
				[600, 600],
				{
					resource: 'conversation',
					operation: 'sendMessage',
					conversation: { __rl: true, mode: 'list', value: '' },
					content: 'Hello from the sales team',
				},
				api,
			),
			node(
				7,
				NODES.verify,
				`${PACKAGE}.leadConversations`,
				1.1,
				[600, 800],
				{ resource: 'event', operation: 'verify', options: { output: 'data' } },
				{ leadConversationsSigningSecretApi: secretCredential },
			),
			node(
				8,
				NODES.sync,
				`${PACKAGE}.leadConversationsPollTrigger`,
				1,
				[0, 1000],
				{ event: 'leadChanged', options: { includeExistingLeads: true, output: 'flat' } },
				api,
			),
			node(
				9,
				NODES.assign,
				`${PACKAGE}.leadConversations`,
				1.1,
				[900, 600],
				{
					resource: 'lead',
					operation: 'assign',
					lead: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
					rosterSource: 'advisors',
					advisors: {
						advisor: [
							{ userId: 'user_ana', weight: 2, away: false },
							{ userId: 'user_ben', weight: 1, away: false },
							{ userId: 'user_caro', weight: 1, away: true },
						],
					},
					turns: 'rotation',
					setStatus: true,
				},
				api,
			),
		],
		connections: {
			[NODES.manual]: {
				main: [
					[
						{ node: NODES.getMany, type: 'main', index: 0 },
						{ node: NODES.updateAgent, type: 'main', index: 0 },
					],
				],
			},
			[NODES.getMany]: {
				main: [
					[
						{ node: NODES.sendMessage, type: 'main', index: 0 },
						{ node: NODES.assign, type: 'main', index: 0 },
					],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}
