import { existsSync } from 'fs';
import { join } from 'path';

import {
	operationsByResource,
	wholeInputOperations,
} from '../../../nodes/LeadConversations/actions/router';

// The focused tests mirror the source: actions/<resource>/<op>.operation.ts is tested by
// <resource>/<op>.test.ts next to this file, which `npx jest test/nodes/action/<resource>/<op>`
// runs alone.
const operations = Object.entries({ ...operationsByResource, ...wholeInputOperations }).flatMap(
	([resource, byName]) => Object.keys(byName).map((operation) => [resource, operation] as const),
);

test.each(operations)('%s → %s has its own test file', (resource, operation) => {
	const source = join(
		__dirname,
		'../../../nodes/LeadConversations/actions',
		resource,
		`${operation}.operation.ts`,
	);
	expect(existsSync(source)).toBe(true);
	expect(existsSync(join(__dirname, resource, `${operation}.test.ts`))).toBe(true);
});
