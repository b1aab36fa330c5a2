import { unmetLeadCondition } from '../../../nodes/shared/events/conditions';

const hotLead = {
	id: 'lead_1',
	score: 91,
	intent: 'purchase_30_days',
	channel: 'chat_app',
	status: 'qualified',
};

describe('unmetLeadCondition: conditions checked before a run starts', () => {
	const cases: Array<[string, Record<string, unknown>, object, boolean]> = [
		['no conditions', hotLead, {}, true],
		['score above the minimum', hotLead, { minimumScore: 80 }, true],
		['score equal to the minimum', hotLead, { minimumScore: 91 }, true],
		['score below the minimum', hotLead, { minimumScore: 92 }, false],
		[
			'score missing while a minimum is set',
			{ ...hotLead, score: undefined },
			{ minimumScore: 0 },
			false,
		],
		['intent listed', hotLead, { intents: ['purchase_30_days', 'purchase_90_days'] }, true],
		['intent not listed', hotLead, { intents: ['browsing'] }, false],
		['channel listed', hotLead, { channels: ['chat_app'] }, true],
		['channel not listed', hotLead, { channels: ['email', 'phone'] }, false],
		['status listed', hotLead, { statuses: ['qualified'] }, true],
		['status not listed', hotLead, { statuses: ['new'] }, false],
		['empty lists mean any', hotLead, { intents: [], channels: [], statuses: [] }, true],
		[
			'all conditions met together',
			hotLead,
			{
				minimumScore: 90,
				intents: ['purchase_30_days'],
				channels: ['chat_app'],
				statuses: ['qualified'],
			},
			true,
		],
		[
			'one of several conditions unmet',
			hotLead,
			{ minimumScore: 90, intents: ['purchase_30_days'], channels: ['email'] },
			false,
		],
	];

	it.each(cases)('lead.qualified with %s → passes: %s', (_case, data, conditions, passes) => {
		expect(unmetLeadCondition('lead.qualified', data, conditions) === undefined).toBe(passes);
	});

	it('says which condition was not met', () => {
		expect(unmetLeadCondition('lead.qualified', hotLead, { minimumScore: 95 })).toBe(
			'score 91 is below the minimum score 95',
		);
		expect(unmetLeadCondition('lead.qualified', hotLead, { channels: ['email'] })).toBe(
			'channel chat_app is not one of email',
		);
	});

	it('does not filter events that are not about a lead', () => {
		const appointment = { id: 'appt_1', lead_id: 'lead_1', scheduled_at: 't', location: 'x' };
		const strict = {
			minimumScore: 100,
			intents: ['browsing'],
			channels: ['email'],
			statuses: ['lost'],
		};
		expect(unmetLeadCondition('appointment.booked', appointment, strict)).toBeUndefined();
		expect(unmetLeadCondition('conversation.milestone', { id: 'conv_1' }, strict)).toBeUndefined();
	});
});
