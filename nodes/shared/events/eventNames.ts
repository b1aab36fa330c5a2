// The event names a subscription asks for: shared by the trigger and Webhook Subscription → Create,
// so both subscribe to the same list for the same choices.

import { WEBHOOK_ALL_EVENTS } from '../constants';

/**
 * The events to subscribe to: "All events" wins over any other choice; otherwise the chosen
 * names plus the typed ones, each once, in the order given.
 */
export function subscribedEvents(chosen: string[], typed: string): string[] {
	if (chosen.includes(WEBHOOK_ALL_EVENTS)) return [WEBHOOK_ALL_EVENTS];
	const typedNames = typed
		.split(/[,\s]+/)
		.map((name) => name.trim())
		.filter((name) => name !== '');
	return [...new Set([...chosen, ...typedNames])];
}

export function isSubscribed(events: string[], event: string): boolean {
	return events.includes(WEBHOOK_ALL_EVENTS) || events.includes(event);
}
