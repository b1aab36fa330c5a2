import { searchAgents, searchConversations, searchLeads } from './listSearch';

export const listSearch = { searchLeads, searchAgents, searchConversations };
