/** Digest lists from the switch, decoded by the digest's type in the P4Info, each with its ack. */
import type * as p4r from '../proto/p4r.js';
import type { P4Schema } from '../p4info/index.js';
import { decodeP4Data, type P4DataValue } from './entities/p4data.js';

export interface DigestList {
  readonly digestId: number;
  /** The digest's name, or '' when no P4Info is loaded. */
  readonly name: string;
  readonly listId: bigint;
  readonly timestamp: bigint;
  /** One value per digest (a struct decodes to an object by member name). */
  readonly data: readonly P4DataValue[];
  /** Tells the switch the list arrived, so it stops suppressing these digests. */
  ack(): Promise<void>;
}

export function decodeDigestList(msg: p4r.DigestList__Output, schema: P4Schema | undefined, ack: (digestId: number, listId: string) => Promise<void>): DigestList {
  const info = schema?.digests.find(msg.digest_id);
  const data = msg.data.map((d) => decodeP4Data(d, info?.typeSpec, schema));
  return {
    digestId: msg.digest_id,
    name: info?.name ?? '',
    listId: BigInt(msg.list_id),
    timestamp: BigInt(msg.timestamp),
    data,
    ack: () => ack(msg.digest_id, msg.list_id),
  };
}
