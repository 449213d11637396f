// Original file: proto/p4/config/v1/p4info.proto


export interface PlatformProperties {
  'multicast_group_table_size'?: (number);
  'multicast_group_table_total_replicas'?: (number);
  'multicast_group_table_max_replicas_per_entry'?: (number);
}

export interface PlatformProperties__Output {
  'multicast_group_table_size': (number);
  'multicast_group_table_total_replicas': (number);
  'multicast_group_table_max_replicas_per_entry': (number);
}
