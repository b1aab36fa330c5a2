import {
	searchAgents,
	searchConversations,
	searchLeads,
	searchOpenConversations,
} from './listSearch';

export const listSearch = {
	searchLeads,
	searchAgents,
	searchConversations,
	searchOpenConversations,
};
