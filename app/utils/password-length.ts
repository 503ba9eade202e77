/**
 * How long a staff password may be, wherever one is set: ADMIN_PASSWORD, `npm run admin:create`,
 * an invitation or a password change (OWASP ASVS 2.1).
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;
