// Original file: proto/p4/v1/p4runtime.proto

import type { ActionProfileAction as _p4_v1_ActionProfileAction, ActionProfileAction__Output as _p4_v1_ActionProfileAction__Output } from '../../p4/v1/ActionProfileAction.js';

// Original file: proto/p4/v1/p4runtime.proto

export const _p4_v1_ActionProfileActionSet_ActionSelectionMode = {
  DEFAULT_MODE_DETERMINED_BY_ACTION_SELECTOR: 'DEFAULT_MODE_DETERMINED_BY_ACTION_SELECTOR',
  HASH: 'HASH',
  RANDOM: 'RANDOM',
} as const;

export type _p4_v1_ActionProfileActionSet_ActionSelectionMode =
  | 'DEFAULT_MODE_DETERMINED_BY_ACTION_SELECTOR'
  | 0
  | 'HASH'
  | 1
  | 'RANDOM'
  | 2

export type _p4_v1_ActionProfileActionSet_ActionSelectionMode__Output = typeof _p4_v1_ActionProfileActionSet_ActionSelectionMode[keyof typeof _p4_v1_ActionProfileActionSet_ActionSelectionMode]

// Original file: proto/p4/v1/p4runtime.proto

export const _p4_v1_ActionProfileActionSet_SizeSemantics = {
  DEFAULT_SIZE_DETERMINED_BY_ACTION_SELECTOR: 'DEFAULT_SIZE_DETERMINED_BY_ACTION_SELECTOR',
  SUM_OF_WEIGHTS: 'SUM_OF_WEIGHTS',
  SUM_OF_MEMBERS: 'SUM_OF_MEMBERS',
} as const;

export type _p4_v1_ActionProfileActionSet_SizeSemantics =
  | 'DEFAULT_SIZE_DETERMINED_BY_ACTION_SELECTOR'
  | 0
  | 'SUM_OF_WEIGHTS'
  | 1
  | 'SUM_OF_MEMBERS'
  | 2

export type _p4_v1_ActionProfileActionSet_SizeSemantics__Output = typeof _p4_v1_ActionProfileActionSet_SizeSemantics[keyof typeof _p4_v1_ActionProfileActionSet_SizeSemantics]

export interface ActionProfileActionSet {
  'action_profile_actions'?: (_p4_v1_ActionProfileAction)[];
  'action_selection_mode'?: (_p4_v1_ActionProfileActionSet_ActionSelectionMode);
  'size_semantics'?: (_p4_v1_ActionProfileActionSet_SizeSemantics);
}

export interface ActionProfileActionSet__Output {
  'action_profile_actions': (_p4_v1_ActionProfileAction__Output)[];
  'action_selection_mode': (_p4_v1_ActionProfileActionSet_ActionSelectionMode__Output);
  'size_semantics': (_p4_v1_ActionProfileActionSet_SizeSemantics__Output);
}
