import {
	completeFromMemory,
	rememberSubscription,
	rememberedSubscription,
	subscriptionScope,
} from '../../../nodes/LeadConversationsTrigger/subscription/memory';
import type { StoredSubscription } from '../../../nodes/LeadConversationsTrigger/subscription/api';

const PRODUCTION = 'https://n8n.dealer-group.example/webhook/5c1e0f3a/webhook';
const TEST = 'https://n8n.dealer-group.example/webhook-test/5c1e0f3a/webhook';

const subscription = (id: string): StoredSubscription => ({
	subscriptionId: id,
	signingSecret: `secret-of-${id}`,
	subscribedUrl: PRODUCTION,
	subscribedEvents: ['lead.qualified'],
});

describe('subscriptionScope: whose subscription a record is', () => {
	it('one per workflow, trigger node and listener: the production and the test URL each have their own', () => {
		const production = subscriptionScope('wf_1', 'node-1', PRODUCTION);
		expect(subscriptionScope('wf_1', 'node-1', TEST)).not.toBe(production);
		expect(subscriptionScope('wf_2', 'node-1', PRODUCTION)).not.toBe(production);
		expect(subscriptionScope('wf_1', 'node-2', PRODUCTION)).not.toBe(production);
	});

	it('is the same when only the instance address changed, so the record is found and its URL compared', () => {
		expect(
			subscriptionScope('wf_1', 'node-1', 'https://new-address.example/webhook/5c1e0f3a/webhook'),
		).toBe(subscriptionScope('wf_1', 'node-1', PRODUCTION));
	});
});

describe('rememberSubscription', () => {
	it('keeps a copy that later changes to the static data do not reach', () => {
		const stored = subscription('wh_copy');
		rememberSubscription('scope-copy', stored);
		stored.subscribedEvents!.push('lead.assigned');
		delete stored.subscriptionId;
		expect(rememberedSubscription('scope-copy')).toEqual(subscription('wh_copy'));
	});

	it('forgets the record once nothing is left to delete', () => {
		rememberSubscription('scope-empty', subscription('wh_gone'));
		rememberSubscription('scope-empty', {});
		expect(rememberedSubscription('scope-empty')).toBeUndefined();
		rememberSubscription('scope-empty', { undeletedSubscriptionIds: ['wh_stuck'] });
		expect(rememberedSubscription('scope-empty')).toEqual({
			undeletedSubscriptionIds: ['wh_stuck'],
		});
	});
});

describe('completeFromMemory: static data first, memory where it lost something', () => {
	it('takes over the remembered subscription when the static data names none', () => {
		const stored: StoredSubscription = {};
		expect(completeFromMemory(stored, subscription('wh_1'))).toBe(true);
		expect(stored).toEqual(subscription('wh_1'));
	});

	it('changes nothing when both name the same subscription, or memory knows nothing', () => {
		const stored = subscription('wh_1');
		expect(completeFromMemory(stored, subscription('wh_1'))).toBe(false);
		expect(stored).toEqual(subscription('wh_1'));
		expect(completeFromMemory(stored, undefined)).toBe(false);
		expect(stored).toEqual(subscription('wh_1'));
	});

	it('keeps the one the static data names and queues a different remembered one for deletion', () => {
		const stored = subscription('wh_saved');
		expect(completeFromMemory(stored, subscription('wh_remembered'))).toBe(false);
		expect(stored).toEqual({
			...subscription('wh_saved'),
			undeletedSubscriptionIds: ['wh_remembered'],
		});
	});

	it('keeps every failed deletion from both, each once, never the current subscription', () => {
		const stored: StoredSubscription = {
			...subscription('wh_current'),
			undeletedSubscriptionIds: ['wh_a', 'wh_b'],
		};
		completeFromMemory(stored, {
			...subscription('wh_current'),
			undeletedSubscriptionIds: ['wh_b', 'wh_c', 'wh_current'],
		});
		expect(stored.undeletedSubscriptionIds).toEqual(['wh_a', 'wh_b', 'wh_c']);
	});
});
