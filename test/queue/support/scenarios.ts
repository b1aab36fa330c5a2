import { deliveredToSubscription } from './service';
import { suite } from './suite';

/**
 * The scenario of point 3: the balancer loses the first answer of every event (n8n handled it,
 * the service never saw the 200 and retries), and webhook process 2 restarts half-way. The
 * service's retries are scaled (1, 5, 30 min × 0.1 = 6 s, 30 s, 3 min after the first failure)
 * so that a retry comes after the first run has finished, as with the real one-minute retry
 * (the figures count the retries that did).
 * `stream` makes `events` events for each subscription and calls its argument once half-way;
 * returns what it returned once each event sent to `subscriptionIds` was answered 2xx (or 150 s
 * passed).
 */
export async function withLostAnswersAndRestart<T>(
	subscriptionIds: string[],
	events: number,
	stream: (atHalf: () => void) => Promise<T>,
): Promise<T> {
	const { cluster, sandbox } = suite;
	sandbox.control.setOptions({ retryScale: 0.1 });
	sandbox.control.clearDeliveries();
	cluster.balancer.clearLog();
	cluster.faults.loseFirstAnswers(true);
	let restart: Promise<void> | undefined;
	try {
		const made = await stream(() => {
			restart = cluster.webhooks[1].restart();
		});
		await restart;
		for (const id of subscriptionIds) await deliveredToSubscription(id, events, 150_000);
		return made;
	} finally {
		cluster.faults.loseFirstAnswers(false);
		sandbox.control.setOptions({ retryScale: 1 });
		if (!cluster.webhooks[1].running) await cluster.webhooks[1].start();
	}
}

/** "n of m (p %)" */
export function share(count: number, of: number): string {
	return `${count} of ${of} (${of > 0 ? ((count / of) * 100).toFixed(0) : 0} %)`;
}
