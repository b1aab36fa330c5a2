import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { LeadConversationsApi } from '../../credentials/LeadConversationsApi.credentials';

const credentialsDirectory = resolve(__dirname, '../../credentials');

describe('Lead Conversations API credential definition', () => {
	const credential = new LeadConversationsApi();
	const field = (name: string) => credential.properties.find((property) => property.name === name);

	it('is registered under the name the nodes ask for', () => {
		expect(credential.name).toBe('leadConversationsApi');
		expect(credential.displayName).toBe('Lead Conversations API');
		expect(credential.documentationUrl).toBe(
			'https://github.com/lead-conversations/n8n-nodes-lead-conversations#credentials',
		);
	});

	it('asks for a required, masked API key', () => {
		expect(field('apiKey')).toMatchObject({
			displayName: 'API Key',
			type: 'string',
			typeOptions: { password: true },
			required: true,
		});
	});

	it('asks for a required Base URL and shows the /v1 form', () => {
		expect(field('baseUrl')).toMatchObject({
			displayName: 'Base URL',
			type: 'string',
			required: true,
			placeholder: 'https://api.example.com/v1',
		});
		expect(field('baseUrl')?.description).toContain('/v1');
	});

	it('has light and dark icons that exist and differ', () => {
		const icon = credential.icon as { light: string; dark: string };
		const files = [icon.light, icon.dark].map((reference) => {
			expect(reference).toMatch(/^file:/);
			return join(credentialsDirectory, reference.slice('file:'.length));
		});

		for (const file of files) {
			expect(existsSync(file)).toBe(true);
			const svg = readFileSync(file, 'utf8');
			expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 60 60"/);
			expect(svg).not.toMatch(/href|url\(|<image|<script/i);
		}
		expect(readFileSync(files[0], 'utf8')).not.toBe(readFileSync(files[1], 'utf8'));
	});

	it('tests with a read every key may do, and tells key problems from address problems', () => {
		expect(credential.test?.request).toMatchObject({ url: '/agents', qs: { limit: 1 } });
		const messages = Object.fromEntries(
			(credential.test?.rules ?? []).map((rule) => [
				(rule.properties as { value: number }).value,
				rule.properties.message,
			]),
		);
		expect(Object.keys(messages).sort()).toEqual(['401', '403', '404']);
		expect(messages[401]).toMatch(/API key/);
		expect(messages[404]).toMatch(/Base URL.*\/v1/);
	});
});
