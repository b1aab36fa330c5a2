import {
	startScriptedChatModel,
	type ScriptedChatModel,
	type TurnView,
} from '../../harness/support/scriptedChatModel';

// The scripted model the real-n8n agent suite talks to: it must speak the chat-completions
// protocol (plain and streamed) and hand each turn the tool results of the previous one.

const TOOLS = [
	{
		type: 'function' as const,
		function: {
			name: 'Find_leads',
			description: 'List leads',
			parameters: { properties: { status: { type: 'string', description: 'Lead status' } } },
		},
	},
];

let model: ScriptedChatModel;
const seen: TurnView[] = [];

beforeAll(async () => {
	model = await startScriptedChatModel((view) => {
		seen.push(view);
		if (view.turn === 0)
			return { toolCalls: [{ name: 'Find_leads', arguments: { status: 'qualified' } }] };
		const leads = view.lastResults[0].json as Array<{ id: string }>;
		return { text: `Found ${leads.map((lead) => lead.id).join(', ')}` };
	});
});

afterAll(async () => {
	await model.close();
});

async function post(body: object): Promise<Response> {
	return await fetch(`${model.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}

it('answers the first turn with the scripted tool call, as chat-completions JSON', async () => {
	const response = await post({
		model: 'x',
		messages: [{ role: 'user', content: 'Which leads are qualified?' }],
		tools: TOOLS,
	});
	expect(response.status).toBe(200);
	const body = (await response.json()) as any;
	expect(body.choices[0].finish_reason).toBe('tool_calls');
	const [call] = body.choices[0].message.tool_calls;
	expect(call.function.name).toBe('Find_leads');
	expect(JSON.parse(call.function.arguments)).toEqual({ status: 'qualified' });
	expect(seen.at(-1)).toMatchObject({ turn: 0, userText: 'Which leads are qualified?' });
	expect(seen.at(-1)!.tools.map((tool) => tool.name)).toEqual(['Find_leads']);
});

it('hands the next turn the tool results, and streams when asked to', async () => {
	const response = await post({
		stream: true,
		messages: [
			{ role: 'user', content: 'Which leads are qualified?' },
			{
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_1',
						type: 'function',
						function: { name: 'Find_leads', arguments: '{"status":"qualified"}' },
					},
				],
			},
			{ role: 'tool', tool_call_id: 'call_1', content: '[{"id":"lead_a"},{"id":"lead_b"}]' },
		],
	});
	const text = await response.text();
	expect(response.headers.get('content-type')).toContain('text/event-stream');
	const content = text
		.split('\n')
		.filter((line) => line.startsWith('data: {'))
		.map((line) => JSON.parse(line.slice(6)).choices[0].delta.content ?? '')
		.join('');
	expect(content).toBe('Found lead_a, lead_b');
	expect(text.trim().endsWith('data: [DONE]')).toBe(true);
	expect(seen.at(-1)!.lastResults).toEqual([
		expect.objectContaining({ name: 'Find_leads', arguments: { status: 'qualified' } }),
	]);
	expect(model.requests).toHaveLength(2);
});
