// `node --import ./register-ts.mjs child.ts`: installs ts-hooks.mjs.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
