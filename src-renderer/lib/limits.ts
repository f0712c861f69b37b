/**
 * Business limits the forms check before the server does (specification section 9). Kept here, not
 * imported from src-shared/api/fields, so the sign-in screen does not bundle zod; a renderer test checks
 * they equal the server's.
 */
export const PASSWORD_MIN = 6;
