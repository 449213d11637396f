/**
 * p4ina's library entry point (`import … from 'p4ina'`): the P4Runtime client
 * library and the P4Info model. The switch, compiler and agents are used
 * through the `p4ina` command.
 */
export * from './p4runtime/index.js';
export * from './p4info/index.js';
export { P4inaError } from './errors/p4ina-error.js';
