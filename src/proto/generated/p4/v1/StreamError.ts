// Original file: proto/p4/v1/p4runtime.proto

import type { PacketOutError as _p4_v1_PacketOutError, PacketOutError__Output as _p4_v1_PacketOutError__Output } from '../../p4/v1/PacketOutError.js';
import type { DigestListAckError as _p4_v1_DigestListAckError, DigestListAckError__Output as _p4_v1_DigestListAckError__Output } from '../../p4/v1/DigestListAckError.js';
import type { StreamOtherError as _p4_v1_StreamOtherError, StreamOtherError__Output as _p4_v1_StreamOtherError__Output } from '../../p4/v1/StreamOtherError.js';

export interface StreamError {
  'canonical_code'?: (number);
  'message'?: (string);
  'space'?: (string);
  'code'?: (number);
  'packet_out'?: (_p4_v1_PacketOutError | null);
  'digest_list_ack'?: (_p4_v1_DigestListAckError | null);
  'other'?: (_p4_v1_StreamOtherError | null);
  'details'?: "packet_out"|"digest_list_ack"|"other";
}

export interface StreamError__Output {
  'canonical_code': (number);
  'message': (string);
  'space': (string);
  'code': (number);
  'packet_out'?: (_p4_v1_PacketOutError__Output | null);
  'digest_list_ack'?: (_p4_v1_DigestListAckError__Output | null);
  'other'?: (_p4_v1_StreamOtherError__Output | null);
  'details'?: "packet_out"|"digest_list_ack"|"other";
}
