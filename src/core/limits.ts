/** The free tier's published limits (specification "Limits"); `serve` flags may override them locally. */
export const WINDOW_LIMIT = 240;
export const WINDOW_SECONDS = 60;
export const DAILY_LIMIT = 1000;
export const CACHE_MAX_AGE_SECONDS = 300;
/** Hostile-input bounds of the handler: longer targets get 414, more parameters 400. */
export const MAX_URL_LENGTH = 4096;
export const MAX_PARAMS = 64;
