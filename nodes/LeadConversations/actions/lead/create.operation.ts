import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LEAD_API_CHANNEL, LEAD_CHANNELS } from '../../../shared/constants';
import { apiRequest } from '../../../shared/transport';
import {
	checkE164Phone,
	checkEmail,
	checkOneOf,
	checkRequiredText,
	checkText,
	firstProblem,
	ifGiven,
} from '../../../shared/validation';
import { optionsOf } from '../../../shared/labels';
import {
	collectionParameter,
	optionalParameter,
	bodyAsItem,
	trimmedText,
	throwIfInvalid,
} from '../input';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. María Pérez',
		description: 'Full name of the lead',
	},
	{
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +5491155550123',
		description: 'Phone number in E.164 format, including the country code',
	},
	{
		displayName: 'Channel',
		name: 'channel',
		type: 'options',
		default: LEAD_API_CHANNEL,
		options: [
			{
				name: 'API (Default)',
				value: LEAD_API_CHANNEL,
				description: 'Created through the interface, without a channel',
			},
			...optionsOf(LEAD_CHANNELS),
		],
		description: 'Channel the lead came from',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
			},
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Internal notes for the team; never sent to the lead',
			},
			{
				displayName: 'Vehicle Interest',
				name: 'vehicleInterest',
				type: 'string',
				default: '',
				placeholder: 'e.g. Toyota Hilux 2024',
				description: 'Vehicle the lead is interested in, as free text',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['create'] } },
	properties,
);

/** `api` stands for "no channel": the service records it then, but does not accept it. */
const CHANNEL_CHOICES: readonly string[] = [LEAD_API_CHANNEL, ...LEAD_CHANNELS];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const name = this.getNodeParameter('name', itemIndex) as string;
	const phone = String(this.getNodeParameter('phone', itemIndex) ?? '').trim();
	const channel = optionalParameter.call(this, 'channel', itemIndex, LEAD_API_CHANNEL);
	const fields = collectionParameter.call(this, 'additionalFields', itemIndex);
	const email = trimmedText(fields.email);

	throwIfInvalid.call(
		this,
		itemIndex,
		firstProblem(
			checkRequiredText('Name', name),
			checkE164Phone('Phone', phone),
			checkOneOf('Channel', channel, CHANNEL_CHOICES),
			ifGiven(checkEmail, 'Email', email),
			ifGiven(checkText, 'Notes', fields.notes),
			ifGiven(checkText, 'Vehicle Interest', fields.vehicleInterest),
		),
	);

	const body: IDataObject = { name: name.trim(), phone };
	if (email !== undefined) body.email = email;
	if (channel !== LEAD_API_CHANNEL) body.channel = channel as string;
	const vehicleInterest = trimmedText(fields.vehicleInterest);
	if (vehicleInterest !== undefined) body.vehicle_interest = vehicleInterest;
	const notes = trimmedText(fields.notes);
	if (notes !== undefined) body.notes = notes;

	const { body: lead } = await apiRequest.call(this, 'POST', '/leads', { body, itemIndex });
	return [bodyAsItem(lead)];
}
