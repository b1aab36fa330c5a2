import type { TriggerPanelDefinition } from 'n8n-workflow';

/**
 * The panel n8n shows beside the trigger's parameters before a test run, in place of its generic
 * "fetch a single mock event": what a test run gives (what a check would find now, nothing made
 * up, nothing stored) and what publishing does.
 */
export const pollTriggerPanel: TriggerPanelDefinition = {
	header: 'Fetch what a check of the lead service finds now',
	executionsHelp: {
		inactive:
			'<b>While building</b>, click Fetch Test Event: the trigger reads the service now and shows up to 3 items of the chosen event, real records as they are. For <b>Assigned Lead Not Contacted</b> these are only leads whose wait has ended with nobody writing to them, checked as a published workflow checks them; when there is none, it says so and nothing after the trigger runs. A test run stores nothing and does not change what the published checks announce.<br /><br /><b>To run automatically</b>, publish the workflow: n8n checks the service at the Poll Times, and each new event starts an execution, listed in the <a data-key="executions">executions list</a>. The first check only notes where things stand.',
		active:
			'The workflow is published: n8n checks the service at the Poll Times, and each new event starts an execution, listed in the <a data-key="executions">executions list</a>.<br /><br />Fetch Test Event shows here what a check would find now; it stores nothing and does not change what the published checks announce.',
	},
	activationHint:
		'Once the workflow is built, publish it: the trigger checks the service at the Poll Times and every new event starts an execution.',
};
