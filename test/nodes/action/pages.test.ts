import type { IDataObject } from 'n8n-workflow';

import { iterateListPages } from '../../../nodes/shared/transport';
import { apiRequests, editorContext, useSandbox } from './helpers';

const ctx = useSandbox({ leads: 450 }, { resetEach: false });

describe('pages are produced one by one', () => {
	test('the next page is requested only when the previous one was taken', async () => {
		const pages = iterateListPages<IDataObject>;
		const iterator = pages.call(editorContext(ctx.sandbox, {}), '/leads', {}, { returnAll: true });
		const sizes: number[] = [];
		for await (const page of iterator) {
			sizes.push(page.length);
			// Nothing is read ahead: exactly one request per page handed out so far.
			expect(apiRequests(ctx.sandbox, '/v1/leads')).toHaveLength(sizes.length);
		}
		expect(sizes).toEqual([100, 100, 100, 100, 50]);
	});

	test('stopping early sends no further request', async () => {
		const pages = iterateListPages<IDataObject>;
		for await (const page of pages.call(
			editorContext(ctx.sandbox, {}),
			'/leads',
			{},
			{ returnAll: true },
		)) {
			expect(page).toHaveLength(100);
			break;
		}
		expect(apiRequests(ctx.sandbox, '/v1/leads')).toHaveLength(1);
	});
});
