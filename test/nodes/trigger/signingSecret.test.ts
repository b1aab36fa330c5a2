import type { INodeProperties } from 'n8n-workflow';

import { LeadConversationsSigningSecretApi } from '../../../credentials/LeadConversationsSigningSecretApi.credentials';
import {
	createTriggerHarness,
	startTestSandbox,
	type RunningSandbox,
	type TriggerHarness,
	type TriggerHarnessOptions,
} from '../../../harness/engine';
import { LeadConversationsTrigger } from '../../../nodes/LeadConversationsTrigger/LeadConversationsTrigger.node';
import { eventBody, minutesAgo, signedHeaders, storedSecret, triggerParameters } from './fixtures';

let sandbox: RunningSandbox;

beforeAll(async () => {
	sandbox = await startTestSandbox();
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.control.reset();
});

function trigger(
	parameters: Record<string, unknown>,
	options: TriggerHarnessOptions = {},
): TriggerHarness {
	return createTriggerHarness(
		triggerParameters(parameters as never),
		{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
		{ webhookBaseUrl: 'https://n8n.example.test', ...options },
	);
}

/** Which of the given secrets the trigger accepts a signed delivery from. */
async function acceptedSecrets(harness: TriggerHarness, secrets: string[]): Promise<string[]> {
	const accepted: string[] = [];
	for (const [index, secret] of secrets.entries()) {
		const body = eventBody('lead.qualified', { id: `lead_${index}`, score: 90 }, minutesAgo(1));
		const result = await harness.deliver({ body, headers: signedHeaders(body, secret) });
		if (result.statusCode === 200 && result.runs.length === 1) accepted.push(secret);
		else expect(result.statusCode).toBe(401);
	}
	return accepted;
}

describe('the Signing Secret credential', () => {
	const credential = new LeadConversationsSigningSecretApi();

	it('is one required, masked field, and an optional second credential of the trigger, each box labelled', () => {
		expect(credential.name).toBe('leadConversationsSigningSecretApi');
		expect(credential.displayName).toBe('Lead Conversations Signing Secret API');
		expect(credential.properties).toEqual([
			// n8n shows "Connection tested successfully" for any pass: the form says what it means.
			expect.objectContaining({
				name: 'testNotice',
				type: 'notice',
				displayName: expect.stringMatching(/^The service offers no way to check a signing secret/),
			}),
			expect.objectContaining({
				name: 'signingSecret',
				type: 'string',
				typeOptions: { password: true },
				required: true,
			}),
		]);
		const { description } = new LeadConversationsTrigger();
		// Without a displayName each, n8n labels both selectors "Credential".
		expect(description.credentials).toEqual([
			{ name: 'leadConversationsApi', required: true, displayName: 'API Credential' },
			{
				name: 'leadConversationsSigningSecretApi',
				required: false,
				displayName: 'Signing Secret (for Manual Subscription)',
				testedBy: 'testSigningSecret',
			},
		]);
	});

	it('replaces the Signing Secret parameter, which stays only hidden, in one node version', () => {
		const { description } = new LeadConversationsTrigger();
		expect(description.version).toBe(2);
		const parameter = description.properties.find(
			(property: INodeProperties) => property.name === 'signingSecret',
		);
		expect(parameter).toMatchObject({ type: 'hidden', default: '' });
	});

	it('verifies a manual subscription with no parameter at all', async () => {
		const harness = trigger(
			{ subscription: 'manual' },
			{ signingSecretCredential: 'cred-secret-1' },
		);
		await harness.activate();
		expect(await acceptedSecrets(harness, ['cred-secret-1', 'other'])).toEqual(['cred-secret-1']);
		expect(harness.staticData).toEqual({});
	});

	it('wins over the secret the service returned on subscribing', async () => {
		const harness = trigger({}, { signingSecretCredential: 'cred-secret-2' });
		await harness.activate();
		const serviceSecret = storedSecret(harness);
		expect(await acceptedSecrets(harness, [serviceSecret, 'cred-secret-2'])).toEqual([
			'cred-secret-2',
		]);
	});

	it('a manual subscription with neither credential nor parameter cannot be activated', async () => {
		await expect(trigger({ subscription: 'manual' }).activate()).rejects.toThrow(
			/needs its signing secret in a Signing Secret credential/,
		);
	});
});

describe('workflows saved with the Signing Secret parameter (typeVersion 1 and 1.1)', () => {
	it.each([1, 1.1])(
		'at version %s still verify deliveries with the parameter and say it should move',
		async (typeVersion) => {
			const harness = trigger(
				{ subscription: 'manual', signingSecret: 'legacy-secret' },
				{ typeVersion },
			);
			expect(harness.node.typeVersion).toBe(typeVersion);
			await harness.activate();
			expect(await acceptedSecrets(harness, ['legacy-secret', 'other'])).toEqual(['legacy-secret']);
			const warning = harness.logs.find((line) => line.includes('plain text'));
			expect(warning).toContain('Lead Conversations Signing Secret API credential');
			expect(harness.logs.join('\n')).not.toContain('legacy-secret');
		},
	);

	it('with an automatic subscription the parameter still wins over the service secret', async () => {
		const harness = trigger({ signingSecret: 'legacy-secret-2' }, { typeVersion: 1.1 });
		await harness.activate();
		expect(await acceptedSecrets(harness, [storedSecret(harness), 'legacy-secret-2'])).toEqual([
			'legacy-secret-2',
		]);
	});

	it('once a credential is chosen, the credential wins over the old parameter', async () => {
		const harness = trigger(
			{ subscription: 'manual', signingSecret: 'legacy-secret-3' },
			{ typeVersion: 1.1, signingSecretCredential: 'cred-secret-3' },
		);
		await harness.activate();
		expect(await acceptedSecrets(harness, ['legacy-secret-3', 'cred-secret-3'])).toEqual([
			'cred-secret-3',
		]);
	});
});

describe("the credential form's Test button", () => {
	const test = new LeadConversationsTrigger().methods.credentialTest.testSigningSecret;
	const run = async (signingSecret: unknown) =>
		await test.call({} as never, {
			id: 'c',
			name: 'c',
			type: 'leadConversationsSigningSecretApi',
			data: { signingSecret } as never,
		});

	it('accepts a filled secret and refuses an empty one or one with stray spaces', async () => {
		expect((await run('whsec_abc')).status).toBe('OK');
		for (const bad of ['', ' whsec_abc', 'whsec_abc\n', undefined]) {
			expect((await run(bad)).status).toBe('Error');
		}
	});
});
