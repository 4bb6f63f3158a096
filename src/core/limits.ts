/** The free tier's published limits (specification "Limits"); `serve` flags may override them locally. */
export const WINDOW_LIMIT = 240;
export const WINDOW_SECONDS = 60;
export const DAILY_LIMIT = 1000;
export const CACHE_MAX_AGE_SECONDS = 300;
/** Hostile-input bounds of the handler: longer targets get 414, more parameters 400. */
export const MAX_URL_LENGTH = 4096;
export const MAX_PARAMS = 64;
/** `verify URL`'s bounds (src/jobs/verify.ts): one request, body included, and the whole check, waits included. */
export const VERIFY_REQUEST_TIMEOUT_MS = 20_000;
export const VERIFY_RUN_TIMEOUT_MS = 600_000;
