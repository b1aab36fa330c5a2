import type { IWebhookFunctions } from 'n8n-workflow';

/**
 * Calls `forget` when n8n answers this delivery with anything but a 2xx.
 *
 * A delivery's key is recorded before n8n creates its run, so that a copy arriving meanwhile is
 * not run twice. n8n answers the service only once the run is created (in queue mode, once its
 * job is enqueued); when it answers an error instead (the execution could not be created or
 * enqueued, for example no database connection within its time-out), no run exists and the
 * service retries: the key must not make that retry a duplicate. A connection closed before
 * any answer keeps the key: n8n may still create the run.
 */
export function forgetUnlessAccepted(context: IWebhookFunctions, forget: () => void): void {
	const response = context.getResponseObject();
	// Engines that hand the node a bare response object have no events: nothing to watch.
	if (typeof response?.once !== 'function') return;
	response.once('finish', () => {
		const status = response.statusCode;
		if (!(status >= 200 && status < 300)) forget();
	});
}
