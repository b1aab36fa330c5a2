import {
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IHttpRequestOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import { LeadConversationsApi } from '../../credentials/LeadConversationsApi.credentials';
import { n8nEngine } from '../compat/engine';
import {
	runActionNode,
	runCredentialTest,
	startTestSandbox,
	type HarnessCredentials,
	type RunningSandbox,
	testNodeDescription,
} from '../../harness/engine';
import { freePort } from '../../harness/support/ports';

// n8n 1.x loses the HTTP error behind a failed test request (n8n-workflow 1.x resets a
// NodeApiError's `cause`), so its Test button skips the credential's rules and shows n8n's own
// message for the status.
const onN8n1 = n8nEngine.major === 1;
const KEY_REJECTED = onN8n1
	? 'Authorization failed - please check your credentials'
	: 'API key rejected: missing, invalid or revoked';
const NOT_PERMITTED = onN8n1
	? 'Forbidden - perhaps check your credentials?'
	: 'API key accepted but not allowed to read agents: restricted scope, suspended account or plan tier';
const WRONG_BASE_URL = onN8n1
	? 'The resource you are requesting could not be found'
	: 'Base URL not found: it must be the service address ending in /v1, like https://api.example.com/v1';
const CONNECTION_REFUSED = onN8n1
	? 'The service refused the connection - perhaps it is offline'
	: 'ECONNREFUSED';

/** Test-only node: one authenticated GET of a path under the credential's Base URL. */
class AuthenticatedGet implements INodeType {
	description = testNodeDescription(
		'Authenticated GET',
		'authenticatedGet',
		'Reads a path of the service',
		{
			credentials: [{ name: 'leadConversationsApi', required: true }],
			properties: [{ displayName: 'Path', name: 'path', type: 'string', default: '/agents' }],
		},
	);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('leadConversationsApi');
		const response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			'leadConversationsApi',
			{ url: `${baseUrl}${this.getNodeParameter('path', 0) as string}` },
		)) as IDataObject;
		return [[{ json: response, pairedItem: { item: 0 } }]];
	}
}

describe('Lead Conversations API credential', () => {
	let sandbox: RunningSandbox;
	let origin: string;
	const good = (): HarnessCredentials => ({ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl });

	beforeAll(async () => {
		sandbox = await startTestSandbox({ leads: 3 });
		origin = sandbox.baseUrl.replace(/\/v1$/, '');
	});

	afterAll(async () => {
		await sandbox.close();
	});

	beforeEach(() => {
		sandbox.control.reset({ leads: 3 });
	});

	describe('authentication applied by n8n', () => {
		it('sends the API key as X-API-Key on requests a node makes with httpRequestWithAuthentication', async () => {
			const result = await runActionNode({ path: '/agents' }, good(), {
				nodeType: 'test.authenticatedGet',
				nodeTypes: { 'test.authenticatedGet': new AuthenticatedGet() },
			});

			expect(result.status).toBe('success');
			expect(result.output('Lead Conversations')[0].json.data).toEqual(expect.any(Array));
			expect(sandbox.control.requests()).toEqual([
				expect.objectContaining({ method: 'GET', path: '/v1/agents', status: 200, key: 'full' }),
			]);
		});

		it('adds exactly the X-API-Key header and keeps the request as it was otherwise', async () => {
			const authenticate = new LeadConversationsApi().authenticate as (
				credentials: ICredentialDataDecryptedObject,
				request: IHttpRequestOptions,
			) => Promise<IHttpRequestOptions>;
			const request: IHttpRequestOptions = {
				url: '/leads',
				qs: { limit: 1 },
				headers: { Accept: 'application/json' },
			};

			const authenticated = await authenticate({ apiKey: 'key-1', baseUrl: 'x' }, request);

			expect(authenticated).toEqual({
				url: '/leads',
				qs: { limit: 1 },
				headers: { Accept: 'application/json', 'X-API-Key': 'key-1' },
			});
			expect(request.headers).toEqual({ Accept: 'application/json' });
		});
	});

	describe('the Test button', () => {
		it('reports success for a working key and sends one cheap authenticated read', async () => {
			const outcome = await runCredentialTest(good());

			expect(outcome).toMatchObject({ status: 'OK', message: 'Connection successful!' });
			expect(sandbox.control.requests()).toEqual([
				expect.objectContaining({
					method: 'GET',
					path: '/v1/agents',
					query: { limit: '1' },
					key: 'full',
				}),
			]);
		});

		it('accepts a Base URL with trailing slashes and surrounding spaces', async () => {
			const outcome = await runCredentialTest({ ...good(), baseUrl: ` ${sandbox.baseUrl}// ` });

			expect(outcome.status).toBe('OK');
			expect(sandbox.control.requests().map((request) => request.path)).toEqual(['/v1/agents']);
		});

		it.each([
			['a revoked key', () => sandbox.keys.revoked],
			['an unknown key', () => 'lc_live_not_a_real_key'],
			['an empty key', () => ''],
		])('explains that the key was rejected for %s', async (_case, key) => {
			const outcome = await runCredentialTest({ ...good(), apiKey: key() });

			expect(outcome).toMatchObject({ status: 'Error', message: KEY_REJECTED });
			expect(sandbox.control.requests().every((request) => request.status === 401)).toBe(true);
		});

		it('tells a key that may not read agents apart from a rejected one', async () => {
			const outcome = await runCredentialTest({ ...good(), apiKey: sandbox.keys.suspended });

			expect(outcome).toMatchObject({ status: 'Error', message: NOT_PERMITTED });
		});

		it.each([
			['the version segment is missing', () => origin],
			['the version segment is wrong', () => `${origin}/v2`],
			['the path points elsewhere', () => `${origin}/api/v1`],
		])('points at the Base URL when %s', async (_case, baseUrl) => {
			const outcome = await runCredentialTest({ ...good(), baseUrl: baseUrl() });

			expect(outcome).toMatchObject({ status: 'Error', message: WRONG_BASE_URL });
			expect(outcome.message).not.toBe(KEY_REJECTED);
		});

		it('names the connection problem when nothing answers at the Base URL', async () => {
			const port = await freePort();
			const outcome = await runCredentialTest({
				...good(),
				baseUrl: `http://127.0.0.1:${port}/v1`,
			});

			expect(outcome).toMatchObject({ status: 'Error', message: CONNECTION_REFUSED });
		});

		it('never puts the key into its message or the log', async () => {
			const outcomes = [
				await runCredentialTest({ ...good(), apiKey: sandbox.keys.revoked }),
				await runCredentialTest({ apiKey: sandbox.keys.full, baseUrl: origin }),
			];

			for (const outcome of outcomes) {
				expect(outcome.message).not.toContain(sandbox.keys.revoked);
				expect(outcome.message).not.toContain(sandbox.keys.full);
				expect(outcome.logs.join('\n')).not.toContain(sandbox.keys.revoked);
				expect(outcome.logs.join('\n')).not.toContain(sandbox.keys.full);
			}
		});
	});
});
