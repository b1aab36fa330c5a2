// The nodes (nodes/shared/constants.ts) and the sandbox (sandbox/constants.ts) each read the
// service's vocabulary from the specification on their own. If one of them misreads a value, the
// other would not mirror it; this test is what turns that disagreement into a failure.
import * as nodes from '../../nodes/shared/constants';
import * as sandbox from '../../sandbox/constants';

/** Values only the nodes need; each is checked against the sandbox's enums below instead. */
const NODES_ONLY = new Set([
	'CREDENTIAL_NAME',
	'CONVERSATION_STATUS_OPEN',
	'TRANSCRIPT_CHANNEL',
	'MEDIA_MESSAGE_TYPES',
	'ID_FORBIDDEN_CHARACTERS',
]);

/** Header names are case-insensitive on the wire; enum order is not part of the specification. */
function normalized(name: string, value: unknown): unknown {
	if (Array.isArray(value)) return [...value].sort();
	if (name.endsWith('_HEADER') && typeof value === 'string') return value.toLowerCase();
	return value;
}

const shared = Object.keys(nodes).filter((name) => !NODES_ONLY.has(name));

describe('the sandbox and the nodes read the specification alike', () => {
	it('compares every constant the nodes name (at least the enums, limits and headers)', () => {
		expect(shared).toEqual(
			expect.arrayContaining([
				'LEAD_STATUSES',
				'LEAD_INTENTS',
				'LEAD_CHANNELS',
				'LEAD_API_CHANNEL',
				'CONVERSATION_CHANNELS',
				'CONVERSATION_STATUSES',
				'MESSAGE_TYPES',
				'POSTABLE_MESSAGE_TYPES',
				'AGENT_STATUSES',
				'AGENT_SETTABLE_STATUSES',
				'AGENT_LANGUAGES',
				'AGENT_TONES',
				'AGENT_CHANNELS',
				'WEBHOOK_EVENTS',
				'WEBHOOK_ALL_EVENTS',
				'SIGNATURE_HEADER',
				'PAGE_SIZE_MIN',
				'PAGE_SIZE_MAX',
				'SCORE_MIN',
				'SCORE_MAX',
				'RATE_LIMIT_PER_MINUTE',
				'RATE_LIMIT_WINDOW_MS',
				'RATE_LIMIT_REMAINING_HEADER',
				'RATE_LIMIT_RESET_HEADER',
				'RETRY_AFTER_HEADER',
				'LEAD_ID_PREFIX',
				'CONVERSATION_ID_PREFIX',
				'MESSAGE_ID_PREFIX',
			]),
		);
	});

	it.each(shared)('%s is the same in both readings', (name) => {
		const fromSandbox = (sandbox as Record<string, unknown>)[name];
		const fromNodes = (nodes as Record<string, unknown>)[name];
		expect({ name, value: normalized(name, fromSandbox) }).toEqual({
			name,
			value: normalized(name, fromNodes),
		});
	});

	it("the nodes' own choices are values of the sandbox's enums", () => {
		expect(sandbox.CONVERSATION_STATUSES).toContain(nodes.CONVERSATION_STATUS_OPEN);
		expect(sandbox.CONVERSATION_CHANNELS).toContain(nodes.TRANSCRIPT_CHANNEL);
		const postable: readonly string[] = sandbox.POSTABLE_MESSAGE_TYPES;
		expect(nodes.MEDIA_MESSAGE_TYPES.every((type) => postable.includes(type))).toBe(true);
	});
});
