// The n8n Data Tables the assignment examples use, as a person makes them under Overview → Data
// tables. n8n's own Data Table node reads and writes them; the engine keeps them in memory.

import { InMemoryDataTables } from '../../harness/engine';
import { HAND_OFFS_COLUMNS, HAND_OFFS_TABLE } from '../../harness/support/handOffsTable';
import { DEMO_ADVISORS } from './common';

export const ROSTER_TABLE = 'Advisors roster';
export { HAND_OFFS_TABLE };

export function demoDataTables(): InMemoryDataTables {
	const tables = new InMemoryDataTables();
	tables.create(
		ROSTER_TABLE,
		{ user_id: 'string', weight: 'number', away: 'boolean' },
		DEMO_ADVISORS.map((user_id) => ({ user_id, weight: 1, away: false })),
	);
	tables.create(HAND_OFFS_TABLE, HAND_OFFS_COLUMNS, []);
	return tables;
}
