/**
 * The client-side storage keys of the specification (section 3). Main keeps these in LocalStore;
 * the access token is never among them: it lives only in the SessionVault.
 */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  useTotp: 'useTotp',
  sections: 'sections',
  user: 'user',
  rememberMe: 'rememberMe',
  selectedLocale: 'selectedLocale',
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** What a 401 clears (specification section 4 and 8). */
export const CLEARED_ON_UNAUTHORIZED: StorageKey[] = ['accessToken', 'useTotp', 'sections', 'user'];
