// One service for a file of transport tests, on a clock that jumps to the end of each wait the
// node makes, and the requests those tests send and read back.

import { useJumpingClock } from '../../clock';
import { alphaLeads, apiRequests, ref, run, useSandbox } from '../helpers';

/** The sandbox (250 leads), the jumping clock, and the rate limit put back after each test. */
export function useTransportSandbox() {
	const ctx = useSandbox({ leads: 250 });
	const clock = useJumpingClock();
	afterEach(() => {
		ctx.sandbox.control.setRateLimit(1000, 60_000);
	});

	const GET_LEAD = () => ({
		resource: 'lead',
		operation: 'get',
		lead: ref('id', alphaLeads(ctx.sandbox)[0].id),
	});
	const CREATE_LEAD = (phone: string) => ({
		resource: 'lead',
		operation: 'create',
		name: 'Retry Test',
		phone,
	});
	const statuses = (path?: string) => apiRequests(ctx.sandbox, path).map((r) => r.status);
	const leadsWithPhone = (phone: string) =>
		ctx.sandbox.control.state().leads.filter((l) => l.phone === phone);
	const firstLeadIds = (count: number) =>
		alphaLeads(ctx.sandbox)
			.slice(0, count)
			.map((lead) => lead.id);
	/** One execution that gets each lead, one input item per ID. */
	const getEachLead = (ids: string[]) =>
		run(
			ctx.sandbox,
			{ resource: 'lead', operation: 'get', lead: ref('id', '={{ $json.id }}') },
			{ inputItems: ids.map((id) => ({ id })) },
		);
	return { ctx, clock, GET_LEAD, CREATE_LEAD, statuses, leadsWithPhone, firstLeadIds, getEachLead };
}
