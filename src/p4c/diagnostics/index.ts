/** Diagnostics: the catalogue, the bag every pass reports into, and rendering. */
export * from './catalogue.js';
export * from './diagnostic.js';
export * from './bag.js';
export * from './render.js';
