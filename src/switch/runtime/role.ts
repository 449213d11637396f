/**
 * Roles as the server keys them. The role is a name (P4Runtime 1.4+); the empty
 * name is the default role with full pipeline access. Clients older than 1.4
 * may send only the deprecated uint64 role id, which we key as "id:<n>" so that
 * such roles stay apart from the default role. What a named role may do is
 * its role config's business (role-config.ts): without one, it only reads.
 */
import type * as p4r from '../../proto/p4r.js';
import type * as rpc from '../../proto/rpc.js';

export const DEFAULT_ROLE = '';

/** The key of a role given by name and deprecated id (decimal string). */
export function roleKey(name: string | undefined, deprecatedId: string | undefined): string {
  if (name) return name;
  if (deprecatedId && deprecatedId !== '0') return `id:${deprecatedId}`;
  return DEFAULT_ROLE;
}

/** The role of a decoded MasterArbitrationUpdate. */
export function roleKeyOfArbitration(role: p4r.Role__Output | null): string {
  return roleKey(role?.name, role?.id);
}

/** The Role message for notifications: unset for the default role without config. */
export function roleMessage(key: string, config: rpc.Any__Output | null): p4r.Role | null {
  if (key === DEFAULT_ROLE && !config) return null;
  const byId = key.startsWith('id:') && /^id:\d+$/.test(key);
  return {
    ...(byId ? { id: key.slice(3) } : { name: key }),
    ...(config ? { config } : {}),
  };
}

/** How a role is named in messages to users. */
export function describeRole(key: string): string {
  return key === DEFAULT_ROLE ? 'the default role' : `role "${key}"`;
}
