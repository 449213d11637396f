// Original file: proto/p4/v1/p4runtime.proto

import type { Action as _p4_v1_Action, Action__Output as _p4_v1_Action__Output } from '../../p4/v1/Action.js';
import type { ActionProfileActionSet as _p4_v1_ActionProfileActionSet, ActionProfileActionSet__Output as _p4_v1_ActionProfileActionSet__Output } from '../../p4/v1/ActionProfileActionSet.js';

export interface TableAction {
  'action'?: (_p4_v1_Action | null);
  'action_profile_member_id'?: (number);
  'action_profile_group_id'?: (number);
  'action_profile_action_set'?: (_p4_v1_ActionProfileActionSet | null);
  'type'?: "action"|"action_profile_member_id"|"action_profile_group_id"|"action_profile_action_set";
}

export interface TableAction__Output {
  'action'?: (_p4_v1_Action__Output | null);
  'action_profile_member_id'?: (number);
  'action_profile_group_id'?: (number);
  'action_profile_action_set'?: (_p4_v1_ActionProfileActionSet__Output | null);
  'type'?: "action"|"action_profile_member_id"|"action_profile_group_id"|"action_profile_action_set";
}
