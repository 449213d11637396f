import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from './google/protobuf/Any.js';
import type { Status as _google_rpc_Status, Status__Output as _google_rpc_Status__Output } from './google/rpc/Status.js';
import type { Action as _p4_config_v1_Action, Action__Output as _p4_config_v1_Action__Output } from './p4/config/v1/Action.js';
import type { ActionProfile as _p4_config_v1_ActionProfile, ActionProfile__Output as _p4_config_v1_ActionProfile__Output } from './p4/config/v1/ActionProfile.js';
import type { ActionRef as _p4_config_v1_ActionRef, ActionRef__Output as _p4_config_v1_ActionRef__Output } from './p4/config/v1/ActionRef.js';
import type { ControllerPacketMetadata as _p4_config_v1_ControllerPacketMetadata, ControllerPacketMetadata__Output as _p4_config_v1_ControllerPacketMetadata__Output } from './p4/config/v1/ControllerPacketMetadata.js';
import type { Counter as _p4_config_v1_Counter, Counter__Output as _p4_config_v1_Counter__Output } from './p4/config/v1/Counter.js';
import type { CounterSpec as _p4_config_v1_CounterSpec, CounterSpec__Output as _p4_config_v1_CounterSpec__Output } from './p4/config/v1/CounterSpec.js';
import type { Digest as _p4_config_v1_Digest, Digest__Output as _p4_config_v1_Digest__Output } from './p4/config/v1/Digest.js';
import type { DirectCounter as _p4_config_v1_DirectCounter, DirectCounter__Output as _p4_config_v1_DirectCounter__Output } from './p4/config/v1/DirectCounter.js';
import type { DirectMeter as _p4_config_v1_DirectMeter, DirectMeter__Output as _p4_config_v1_DirectMeter__Output } from './p4/config/v1/DirectMeter.js';
import type { Documentation as _p4_config_v1_Documentation, Documentation__Output as _p4_config_v1_Documentation__Output } from './p4/config/v1/Documentation.js';
import type { Expression as _p4_config_v1_Expression, Expression__Output as _p4_config_v1_Expression__Output } from './p4/config/v1/Expression.js';
import type { ExpressionList as _p4_config_v1_ExpressionList, ExpressionList__Output as _p4_config_v1_ExpressionList__Output } from './p4/config/v1/ExpressionList.js';
import type { Extern as _p4_config_v1_Extern, Extern__Output as _p4_config_v1_Extern__Output } from './p4/config/v1/Extern.js';
import type { ExternInstance as _p4_config_v1_ExternInstance, ExternInstance__Output as _p4_config_v1_ExternInstance__Output } from './p4/config/v1/ExternInstance.js';
import type { KeyValuePair as _p4_config_v1_KeyValuePair, KeyValuePair__Output as _p4_config_v1_KeyValuePair__Output } from './p4/config/v1/KeyValuePair.js';
import type { KeyValuePairList as _p4_config_v1_KeyValuePairList, KeyValuePairList__Output as _p4_config_v1_KeyValuePairList__Output } from './p4/config/v1/KeyValuePairList.js';
import type { MatchField as _p4_config_v1_MatchField, MatchField__Output as _p4_config_v1_MatchField__Output } from './p4/config/v1/MatchField.js';
import type { Meter as _p4_config_v1_Meter, Meter__Output as _p4_config_v1_Meter__Output } from './p4/config/v1/Meter.js';
import type { MeterSpec as _p4_config_v1_MeterSpec, MeterSpec__Output as _p4_config_v1_MeterSpec__Output } from './p4/config/v1/MeterSpec.js';
import type { P4BitTypeSpec as _p4_config_v1_P4BitTypeSpec, P4BitTypeSpec__Output as _p4_config_v1_P4BitTypeSpec__Output } from './p4/config/v1/P4BitTypeSpec.js';
import type { P4BitstringLikeTypeSpec as _p4_config_v1_P4BitstringLikeTypeSpec, P4BitstringLikeTypeSpec__Output as _p4_config_v1_P4BitstringLikeTypeSpec__Output } from './p4/config/v1/P4BitstringLikeTypeSpec.js';
import type { P4BoolType as _p4_config_v1_P4BoolType, P4BoolType__Output as _p4_config_v1_P4BoolType__Output } from './p4/config/v1/P4BoolType.js';
import type { P4DataTypeSpec as _p4_config_v1_P4DataTypeSpec, P4DataTypeSpec__Output as _p4_config_v1_P4DataTypeSpec__Output } from './p4/config/v1/P4DataTypeSpec.js';
import type { P4EnumTypeSpec as _p4_config_v1_P4EnumTypeSpec, P4EnumTypeSpec__Output as _p4_config_v1_P4EnumTypeSpec__Output } from './p4/config/v1/P4EnumTypeSpec.js';
import type { P4ErrorType as _p4_config_v1_P4ErrorType, P4ErrorType__Output as _p4_config_v1_P4ErrorType__Output } from './p4/config/v1/P4ErrorType.js';
import type { P4ErrorTypeSpec as _p4_config_v1_P4ErrorTypeSpec, P4ErrorTypeSpec__Output as _p4_config_v1_P4ErrorTypeSpec__Output } from './p4/config/v1/P4ErrorTypeSpec.js';
import type { P4HeaderStackTypeSpec as _p4_config_v1_P4HeaderStackTypeSpec, P4HeaderStackTypeSpec__Output as _p4_config_v1_P4HeaderStackTypeSpec__Output } from './p4/config/v1/P4HeaderStackTypeSpec.js';
import type { P4HeaderTypeSpec as _p4_config_v1_P4HeaderTypeSpec, P4HeaderTypeSpec__Output as _p4_config_v1_P4HeaderTypeSpec__Output } from './p4/config/v1/P4HeaderTypeSpec.js';
import type { P4HeaderUnionStackTypeSpec as _p4_config_v1_P4HeaderUnionStackTypeSpec, P4HeaderUnionStackTypeSpec__Output as _p4_config_v1_P4HeaderUnionStackTypeSpec__Output } from './p4/config/v1/P4HeaderUnionStackTypeSpec.js';
import type { P4HeaderUnionTypeSpec as _p4_config_v1_P4HeaderUnionTypeSpec, P4HeaderUnionTypeSpec__Output as _p4_config_v1_P4HeaderUnionTypeSpec__Output } from './p4/config/v1/P4HeaderUnionTypeSpec.js';
import type { P4Ids as _p4_config_v1_P4Ids, P4Ids__Output as _p4_config_v1_P4Ids__Output } from './p4/config/v1/P4Ids.js';
import type { P4Info as _p4_config_v1_P4Info, P4Info__Output as _p4_config_v1_P4Info__Output } from './p4/config/v1/P4Info.js';
import type { P4IntTypeSpec as _p4_config_v1_P4IntTypeSpec, P4IntTypeSpec__Output as _p4_config_v1_P4IntTypeSpec__Output } from './p4/config/v1/P4IntTypeSpec.js';
import type { P4NamedType as _p4_config_v1_P4NamedType, P4NamedType__Output as _p4_config_v1_P4NamedType__Output } from './p4/config/v1/P4NamedType.js';
import type { P4NewTypeSpec as _p4_config_v1_P4NewTypeSpec, P4NewTypeSpec__Output as _p4_config_v1_P4NewTypeSpec__Output } from './p4/config/v1/P4NewTypeSpec.js';
import type { P4NewTypeTranslation as _p4_config_v1_P4NewTypeTranslation, P4NewTypeTranslation__Output as _p4_config_v1_P4NewTypeTranslation__Output } from './p4/config/v1/P4NewTypeTranslation.js';
import type { P4SerializableEnumTypeSpec as _p4_config_v1_P4SerializableEnumTypeSpec, P4SerializableEnumTypeSpec__Output as _p4_config_v1_P4SerializableEnumTypeSpec__Output } from './p4/config/v1/P4SerializableEnumTypeSpec.js';
import type { P4StructTypeSpec as _p4_config_v1_P4StructTypeSpec, P4StructTypeSpec__Output as _p4_config_v1_P4StructTypeSpec__Output } from './p4/config/v1/P4StructTypeSpec.js';
import type { P4TupleTypeSpec as _p4_config_v1_P4TupleTypeSpec, P4TupleTypeSpec__Output as _p4_config_v1_P4TupleTypeSpec__Output } from './p4/config/v1/P4TupleTypeSpec.js';
import type { P4TypeInfo as _p4_config_v1_P4TypeInfo, P4TypeInfo__Output as _p4_config_v1_P4TypeInfo__Output } from './p4/config/v1/P4TypeInfo.js';
import type { P4VarbitTypeSpec as _p4_config_v1_P4VarbitTypeSpec, P4VarbitTypeSpec__Output as _p4_config_v1_P4VarbitTypeSpec__Output } from './p4/config/v1/P4VarbitTypeSpec.js';
import type { PkgInfo as _p4_config_v1_PkgInfo, PkgInfo__Output as _p4_config_v1_PkgInfo__Output } from './p4/config/v1/PkgInfo.js';
import type { PlatformProperties as _p4_config_v1_PlatformProperties, PlatformProperties__Output as _p4_config_v1_PlatformProperties__Output } from './p4/config/v1/PlatformProperties.js';
import type { Preamble as _p4_config_v1_Preamble, Preamble__Output as _p4_config_v1_Preamble__Output } from './p4/config/v1/Preamble.js';
import type { Register as _p4_config_v1_Register, Register__Output as _p4_config_v1_Register__Output } from './p4/config/v1/Register.js';
import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from './p4/config/v1/SourceLocation.js';
import type { StructuredAnnotation as _p4_config_v1_StructuredAnnotation, StructuredAnnotation__Output as _p4_config_v1_StructuredAnnotation__Output } from './p4/config/v1/StructuredAnnotation.js';
import type { Table as _p4_config_v1_Table, Table__Output as _p4_config_v1_Table__Output } from './p4/config/v1/Table.js';
import type { TableActionCall as _p4_config_v1_TableActionCall, TableActionCall__Output as _p4_config_v1_TableActionCall__Output } from './p4/config/v1/TableActionCall.js';
import type { ValueSet as _p4_config_v1_ValueSet, ValueSet__Output as _p4_config_v1_ValueSet__Output } from './p4/config/v1/ValueSet.js';
import type { Action as _p4_v1_Action, Action__Output as _p4_v1_Action__Output } from './p4/v1/Action.js';
import type { ActionProfileAction as _p4_v1_ActionProfileAction, ActionProfileAction__Output as _p4_v1_ActionProfileAction__Output } from './p4/v1/ActionProfileAction.js';
import type { ActionProfileActionSet as _p4_v1_ActionProfileActionSet, ActionProfileActionSet__Output as _p4_v1_ActionProfileActionSet__Output } from './p4/v1/ActionProfileActionSet.js';
import type { ActionProfileGroup as _p4_v1_ActionProfileGroup, ActionProfileGroup__Output as _p4_v1_ActionProfileGroup__Output } from './p4/v1/ActionProfileGroup.js';
import type { ActionProfileMember as _p4_v1_ActionProfileMember, ActionProfileMember__Output as _p4_v1_ActionProfileMember__Output } from './p4/v1/ActionProfileMember.js';
import type { BackupReplica as _p4_v1_BackupReplica, BackupReplica__Output as _p4_v1_BackupReplica__Output } from './p4/v1/BackupReplica.js';
import type { CapabilitiesRequest as _p4_v1_CapabilitiesRequest, CapabilitiesRequest__Output as _p4_v1_CapabilitiesRequest__Output } from './p4/v1/CapabilitiesRequest.js';
import type { CapabilitiesResponse as _p4_v1_CapabilitiesResponse, CapabilitiesResponse__Output as _p4_v1_CapabilitiesResponse__Output } from './p4/v1/CapabilitiesResponse.js';
import type { CloneSessionEntry as _p4_v1_CloneSessionEntry, CloneSessionEntry__Output as _p4_v1_CloneSessionEntry__Output } from './p4/v1/CloneSessionEntry.js';
import type { CounterData as _p4_v1_CounterData, CounterData__Output as _p4_v1_CounterData__Output } from './p4/v1/CounterData.js';
import type { CounterEntry as _p4_v1_CounterEntry, CounterEntry__Output as _p4_v1_CounterEntry__Output } from './p4/v1/CounterEntry.js';
import type { DigestEntry as _p4_v1_DigestEntry, DigestEntry__Output as _p4_v1_DigestEntry__Output } from './p4/v1/DigestEntry.js';
import type { DigestList as _p4_v1_DigestList, DigestList__Output as _p4_v1_DigestList__Output } from './p4/v1/DigestList.js';
import type { DigestListAck as _p4_v1_DigestListAck, DigestListAck__Output as _p4_v1_DigestListAck__Output } from './p4/v1/DigestListAck.js';
import type { DigestListAckError as _p4_v1_DigestListAckError, DigestListAckError__Output as _p4_v1_DigestListAckError__Output } from './p4/v1/DigestListAckError.js';
import type { DirectCounterEntry as _p4_v1_DirectCounterEntry, DirectCounterEntry__Output as _p4_v1_DirectCounterEntry__Output } from './p4/v1/DirectCounterEntry.js';
import type { DirectMeterEntry as _p4_v1_DirectMeterEntry, DirectMeterEntry__Output as _p4_v1_DirectMeterEntry__Output } from './p4/v1/DirectMeterEntry.js';
import type { Entity as _p4_v1_Entity, Entity__Output as _p4_v1_Entity__Output } from './p4/v1/Entity.js';
import type { Error as _p4_v1_Error, Error__Output as _p4_v1_Error__Output } from './p4/v1/Error.js';
import type { ExternEntry as _p4_v1_ExternEntry, ExternEntry__Output as _p4_v1_ExternEntry__Output } from './p4/v1/ExternEntry.js';
import type { FieldMatch as _p4_v1_FieldMatch, FieldMatch__Output as _p4_v1_FieldMatch__Output } from './p4/v1/FieldMatch.js';
import type { ForwardingPipelineConfig as _p4_v1_ForwardingPipelineConfig, ForwardingPipelineConfig__Output as _p4_v1_ForwardingPipelineConfig__Output } from './p4/v1/ForwardingPipelineConfig.js';
import type { GetForwardingPipelineConfigRequest as _p4_v1_GetForwardingPipelineConfigRequest, GetForwardingPipelineConfigRequest__Output as _p4_v1_GetForwardingPipelineConfigRequest__Output } from './p4/v1/GetForwardingPipelineConfigRequest.js';
import type { GetForwardingPipelineConfigResponse as _p4_v1_GetForwardingPipelineConfigResponse, GetForwardingPipelineConfigResponse__Output as _p4_v1_GetForwardingPipelineConfigResponse__Output } from './p4/v1/GetForwardingPipelineConfigResponse.js';
import type { IdleTimeoutNotification as _p4_v1_IdleTimeoutNotification, IdleTimeoutNotification__Output as _p4_v1_IdleTimeoutNotification__Output } from './p4/v1/IdleTimeoutNotification.js';
import type { Index as _p4_v1_Index, Index__Output as _p4_v1_Index__Output } from './p4/v1/Index.js';
import type { MasterArbitrationUpdate as _p4_v1_MasterArbitrationUpdate, MasterArbitrationUpdate__Output as _p4_v1_MasterArbitrationUpdate__Output } from './p4/v1/MasterArbitrationUpdate.js';
import type { MeterConfig as _p4_v1_MeterConfig, MeterConfig__Output as _p4_v1_MeterConfig__Output } from './p4/v1/MeterConfig.js';
import type { MeterCounterData as _p4_v1_MeterCounterData, MeterCounterData__Output as _p4_v1_MeterCounterData__Output } from './p4/v1/MeterCounterData.js';
import type { MeterEntry as _p4_v1_MeterEntry, MeterEntry__Output as _p4_v1_MeterEntry__Output } from './p4/v1/MeterEntry.js';
import type { MulticastGroupEntry as _p4_v1_MulticastGroupEntry, MulticastGroupEntry__Output as _p4_v1_MulticastGroupEntry__Output } from './p4/v1/MulticastGroupEntry.js';
import type { P4Data as _p4_v1_P4Data, P4Data__Output as _p4_v1_P4Data__Output } from './p4/v1/P4Data.js';
import type { P4Header as _p4_v1_P4Header, P4Header__Output as _p4_v1_P4Header__Output } from './p4/v1/P4Header.js';
import type { P4HeaderStack as _p4_v1_P4HeaderStack, P4HeaderStack__Output as _p4_v1_P4HeaderStack__Output } from './p4/v1/P4HeaderStack.js';
import type { P4HeaderUnion as _p4_v1_P4HeaderUnion, P4HeaderUnion__Output as _p4_v1_P4HeaderUnion__Output } from './p4/v1/P4HeaderUnion.js';
import type { P4HeaderUnionStack as _p4_v1_P4HeaderUnionStack, P4HeaderUnionStack__Output as _p4_v1_P4HeaderUnionStack__Output } from './p4/v1/P4HeaderUnionStack.js';
import type { P4RuntimeClient as _p4_v1_P4RuntimeClient, P4RuntimeDefinition as _p4_v1_P4RuntimeDefinition } from './p4/v1/P4Runtime.js';
import type { P4StructLike as _p4_v1_P4StructLike, P4StructLike__Output as _p4_v1_P4StructLike__Output } from './p4/v1/P4StructLike.js';
import type { P4Varbit as _p4_v1_P4Varbit, P4Varbit__Output as _p4_v1_P4Varbit__Output } from './p4/v1/P4Varbit.js';
import type { PacketIn as _p4_v1_PacketIn, PacketIn__Output as _p4_v1_PacketIn__Output } from './p4/v1/PacketIn.js';
import type { PacketMetadata as _p4_v1_PacketMetadata, PacketMetadata__Output as _p4_v1_PacketMetadata__Output } from './p4/v1/PacketMetadata.js';
import type { PacketOut as _p4_v1_PacketOut, PacketOut__Output as _p4_v1_PacketOut__Output } from './p4/v1/PacketOut.js';
import type { PacketOutError as _p4_v1_PacketOutError, PacketOutError__Output as _p4_v1_PacketOutError__Output } from './p4/v1/PacketOutError.js';
import type { PacketReplicationEngineEntry as _p4_v1_PacketReplicationEngineEntry, PacketReplicationEngineEntry__Output as _p4_v1_PacketReplicationEngineEntry__Output } from './p4/v1/PacketReplicationEngineEntry.js';
import type { ReadRequest as _p4_v1_ReadRequest, ReadRequest__Output as _p4_v1_ReadRequest__Output } from './p4/v1/ReadRequest.js';
import type { ReadResponse as _p4_v1_ReadResponse, ReadResponse__Output as _p4_v1_ReadResponse__Output } from './p4/v1/ReadResponse.js';
import type { RegisterEntry as _p4_v1_RegisterEntry, RegisterEntry__Output as _p4_v1_RegisterEntry__Output } from './p4/v1/RegisterEntry.js';
import type { Replica as _p4_v1_Replica, Replica__Output as _p4_v1_Replica__Output } from './p4/v1/Replica.js';
import type { Role as _p4_v1_Role, Role__Output as _p4_v1_Role__Output } from './p4/v1/Role.js';
import type { SetForwardingPipelineConfigRequest as _p4_v1_SetForwardingPipelineConfigRequest, SetForwardingPipelineConfigRequest__Output as _p4_v1_SetForwardingPipelineConfigRequest__Output } from './p4/v1/SetForwardingPipelineConfigRequest.js';
import type { SetForwardingPipelineConfigResponse as _p4_v1_SetForwardingPipelineConfigResponse, SetForwardingPipelineConfigResponse__Output as _p4_v1_SetForwardingPipelineConfigResponse__Output } from './p4/v1/SetForwardingPipelineConfigResponse.js';
import type { StreamError as _p4_v1_StreamError, StreamError__Output as _p4_v1_StreamError__Output } from './p4/v1/StreamError.js';
import type { StreamMessageRequest as _p4_v1_StreamMessageRequest, StreamMessageRequest__Output as _p4_v1_StreamMessageRequest__Output } from './p4/v1/StreamMessageRequest.js';
import type { StreamMessageResponse as _p4_v1_StreamMessageResponse, StreamMessageResponse__Output as _p4_v1_StreamMessageResponse__Output } from './p4/v1/StreamMessageResponse.js';
import type { StreamOtherError as _p4_v1_StreamOtherError, StreamOtherError__Output as _p4_v1_StreamOtherError__Output } from './p4/v1/StreamOtherError.js';
import type { TableAction as _p4_v1_TableAction, TableAction__Output as _p4_v1_TableAction__Output } from './p4/v1/TableAction.js';
import type { TableEntry as _p4_v1_TableEntry, TableEntry__Output as _p4_v1_TableEntry__Output } from './p4/v1/TableEntry.js';
import type { Uint128 as _p4_v1_Uint128, Uint128__Output as _p4_v1_Uint128__Output } from './p4/v1/Uint128.js';
import type { Update as _p4_v1_Update, Update__Output as _p4_v1_Update__Output } from './p4/v1/Update.js';
import type { ValueSetEntry as _p4_v1_ValueSetEntry, ValueSetEntry__Output as _p4_v1_ValueSetEntry__Output } from './p4/v1/ValueSetEntry.js';
import type { ValueSetMember as _p4_v1_ValueSetMember, ValueSetMember__Output as _p4_v1_ValueSetMember__Output } from './p4/v1/ValueSetMember.js';
import type { WriteRequest as _p4_v1_WriteRequest, WriteRequest__Output as _p4_v1_WriteRequest__Output } from './p4/v1/WriteRequest.js';
import type { WriteResponse as _p4_v1_WriteResponse, WriteResponse__Output as _p4_v1_WriteResponse__Output } from './p4/v1/WriteResponse.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      Any: MessageTypeDefinition<_google_protobuf_Any, _google_protobuf_Any__Output>
    }
    rpc: {
      Status: MessageTypeDefinition<_google_rpc_Status, _google_rpc_Status__Output>
    }
  }
  p4: {
    config: {
      v1: {
        Action: MessageTypeDefinition<_p4_config_v1_Action, _p4_config_v1_Action__Output>
        ActionProfile: MessageTypeDefinition<_p4_config_v1_ActionProfile, _p4_config_v1_ActionProfile__Output>
        ActionRef: MessageTypeDefinition<_p4_config_v1_ActionRef, _p4_config_v1_ActionRef__Output>
        ControllerPacketMetadata: MessageTypeDefinition<_p4_config_v1_ControllerPacketMetadata, _p4_config_v1_ControllerPacketMetadata__Output>
        Counter: MessageTypeDefinition<_p4_config_v1_Counter, _p4_config_v1_Counter__Output>
        CounterSpec: MessageTypeDefinition<_p4_config_v1_CounterSpec, _p4_config_v1_CounterSpec__Output>
        Digest: MessageTypeDefinition<_p4_config_v1_Digest, _p4_config_v1_Digest__Output>
        DirectCounter: MessageTypeDefinition<_p4_config_v1_DirectCounter, _p4_config_v1_DirectCounter__Output>
        DirectMeter: MessageTypeDefinition<_p4_config_v1_DirectMeter, _p4_config_v1_DirectMeter__Output>
        Documentation: MessageTypeDefinition<_p4_config_v1_Documentation, _p4_config_v1_Documentation__Output>
        Expression: MessageTypeDefinition<_p4_config_v1_Expression, _p4_config_v1_Expression__Output>
        ExpressionList: MessageTypeDefinition<_p4_config_v1_ExpressionList, _p4_config_v1_ExpressionList__Output>
        Extern: MessageTypeDefinition<_p4_config_v1_Extern, _p4_config_v1_Extern__Output>
        ExternInstance: MessageTypeDefinition<_p4_config_v1_ExternInstance, _p4_config_v1_ExternInstance__Output>
        KeyValuePair: MessageTypeDefinition<_p4_config_v1_KeyValuePair, _p4_config_v1_KeyValuePair__Output>
        KeyValuePairList: MessageTypeDefinition<_p4_config_v1_KeyValuePairList, _p4_config_v1_KeyValuePairList__Output>
        MatchField: MessageTypeDefinition<_p4_config_v1_MatchField, _p4_config_v1_MatchField__Output>
        Meter: MessageTypeDefinition<_p4_config_v1_Meter, _p4_config_v1_Meter__Output>
        MeterSpec: MessageTypeDefinition<_p4_config_v1_MeterSpec, _p4_config_v1_MeterSpec__Output>
        P4BitTypeSpec: MessageTypeDefinition<_p4_config_v1_P4BitTypeSpec, _p4_config_v1_P4BitTypeSpec__Output>
        P4BitstringLikeTypeSpec: MessageTypeDefinition<_p4_config_v1_P4BitstringLikeTypeSpec, _p4_config_v1_P4BitstringLikeTypeSpec__Output>
        P4BoolType: MessageTypeDefinition<_p4_config_v1_P4BoolType, _p4_config_v1_P4BoolType__Output>
        P4DataTypeSpec: MessageTypeDefinition<_p4_config_v1_P4DataTypeSpec, _p4_config_v1_P4DataTypeSpec__Output>
        P4EnumTypeSpec: MessageTypeDefinition<_p4_config_v1_P4EnumTypeSpec, _p4_config_v1_P4EnumTypeSpec__Output>
        P4ErrorType: MessageTypeDefinition<_p4_config_v1_P4ErrorType, _p4_config_v1_P4ErrorType__Output>
        P4ErrorTypeSpec: MessageTypeDefinition<_p4_config_v1_P4ErrorTypeSpec, _p4_config_v1_P4ErrorTypeSpec__Output>
        P4HeaderStackTypeSpec: MessageTypeDefinition<_p4_config_v1_P4HeaderStackTypeSpec, _p4_config_v1_P4HeaderStackTypeSpec__Output>
        P4HeaderTypeSpec: MessageTypeDefinition<_p4_config_v1_P4HeaderTypeSpec, _p4_config_v1_P4HeaderTypeSpec__Output>
        P4HeaderUnionStackTypeSpec: MessageTypeDefinition<_p4_config_v1_P4HeaderUnionStackTypeSpec, _p4_config_v1_P4HeaderUnionStackTypeSpec__Output>
        P4HeaderUnionTypeSpec: MessageTypeDefinition<_p4_config_v1_P4HeaderUnionTypeSpec, _p4_config_v1_P4HeaderUnionTypeSpec__Output>
        P4Ids: MessageTypeDefinition<_p4_config_v1_P4Ids, _p4_config_v1_P4Ids__Output>
        P4Info: MessageTypeDefinition<_p4_config_v1_P4Info, _p4_config_v1_P4Info__Output>
        P4IntTypeSpec: MessageTypeDefinition<_p4_config_v1_P4IntTypeSpec, _p4_config_v1_P4IntTypeSpec__Output>
        P4NamedType: MessageTypeDefinition<_p4_config_v1_P4NamedType, _p4_config_v1_P4NamedType__Output>
        P4NewTypeSpec: MessageTypeDefinition<_p4_config_v1_P4NewTypeSpec, _p4_config_v1_P4NewTypeSpec__Output>
        P4NewTypeTranslation: MessageTypeDefinition<_p4_config_v1_P4NewTypeTranslation, _p4_config_v1_P4NewTypeTranslation__Output>
        P4SerializableEnumTypeSpec: MessageTypeDefinition<_p4_config_v1_P4SerializableEnumTypeSpec, _p4_config_v1_P4SerializableEnumTypeSpec__Output>
        P4StructTypeSpec: MessageTypeDefinition<_p4_config_v1_P4StructTypeSpec, _p4_config_v1_P4StructTypeSpec__Output>
        P4TupleTypeSpec: MessageTypeDefinition<_p4_config_v1_P4TupleTypeSpec, _p4_config_v1_P4TupleTypeSpec__Output>
        P4TypeInfo: MessageTypeDefinition<_p4_config_v1_P4TypeInfo, _p4_config_v1_P4TypeInfo__Output>
        P4VarbitTypeSpec: MessageTypeDefinition<_p4_config_v1_P4VarbitTypeSpec, _p4_config_v1_P4VarbitTypeSpec__Output>
        PkgInfo: MessageTypeDefinition<_p4_config_v1_PkgInfo, _p4_config_v1_PkgInfo__Output>
        PlatformProperties: MessageTypeDefinition<_p4_config_v1_PlatformProperties, _p4_config_v1_PlatformProperties__Output>
        Preamble: MessageTypeDefinition<_p4_config_v1_Preamble, _p4_config_v1_Preamble__Output>
        Register: MessageTypeDefinition<_p4_config_v1_Register, _p4_config_v1_Register__Output>
        SourceLocation: MessageTypeDefinition<_p4_config_v1_SourceLocation, _p4_config_v1_SourceLocation__Output>
        StructuredAnnotation: MessageTypeDefinition<_p4_config_v1_StructuredAnnotation, _p4_config_v1_StructuredAnnotation__Output>
        Table: MessageTypeDefinition<_p4_config_v1_Table, _p4_config_v1_Table__Output>
        TableActionCall: MessageTypeDefinition<_p4_config_v1_TableActionCall, _p4_config_v1_TableActionCall__Output>
        ValueSet: MessageTypeDefinition<_p4_config_v1_ValueSet, _p4_config_v1_ValueSet__Output>
      }
    }
    v1: {
      Action: MessageTypeDefinition<_p4_v1_Action, _p4_v1_Action__Output>
      ActionProfileAction: MessageTypeDefinition<_p4_v1_ActionProfileAction, _p4_v1_ActionProfileAction__Output>
      ActionProfileActionSet: MessageTypeDefinition<_p4_v1_ActionProfileActionSet, _p4_v1_ActionProfileActionSet__Output>
      ActionProfileGroup: MessageTypeDefinition<_p4_v1_ActionProfileGroup, _p4_v1_ActionProfileGroup__Output>
      ActionProfileMember: MessageTypeDefinition<_p4_v1_ActionProfileMember, _p4_v1_ActionProfileMember__Output>
      BackupReplica: MessageTypeDefinition<_p4_v1_BackupReplica, _p4_v1_BackupReplica__Output>
      CapabilitiesRequest: MessageTypeDefinition<_p4_v1_CapabilitiesRequest, _p4_v1_CapabilitiesRequest__Output>
      CapabilitiesResponse: MessageTypeDefinition<_p4_v1_CapabilitiesResponse, _p4_v1_CapabilitiesResponse__Output>
      CloneSessionEntry: MessageTypeDefinition<_p4_v1_CloneSessionEntry, _p4_v1_CloneSessionEntry__Output>
      CounterData: MessageTypeDefinition<_p4_v1_CounterData, _p4_v1_CounterData__Output>
      CounterEntry: MessageTypeDefinition<_p4_v1_CounterEntry, _p4_v1_CounterEntry__Output>
      DigestEntry: MessageTypeDefinition<_p4_v1_DigestEntry, _p4_v1_DigestEntry__Output>
      DigestList: MessageTypeDefinition<_p4_v1_DigestList, _p4_v1_DigestList__Output>
      DigestListAck: MessageTypeDefinition<_p4_v1_DigestListAck, _p4_v1_DigestListAck__Output>
      DigestListAckError: MessageTypeDefinition<_p4_v1_DigestListAckError, _p4_v1_DigestListAckError__Output>
      DirectCounterEntry: MessageTypeDefinition<_p4_v1_DirectCounterEntry, _p4_v1_DirectCounterEntry__Output>
      DirectMeterEntry: MessageTypeDefinition<_p4_v1_DirectMeterEntry, _p4_v1_DirectMeterEntry__Output>
      Entity: MessageTypeDefinition<_p4_v1_Entity, _p4_v1_Entity__Output>
      Error: MessageTypeDefinition<_p4_v1_Error, _p4_v1_Error__Output>
      ExternEntry: MessageTypeDefinition<_p4_v1_ExternEntry, _p4_v1_ExternEntry__Output>
      FieldMatch: MessageTypeDefinition<_p4_v1_FieldMatch, _p4_v1_FieldMatch__Output>
      ForwardingPipelineConfig: MessageTypeDefinition<_p4_v1_ForwardingPipelineConfig, _p4_v1_ForwardingPipelineConfig__Output>
      GetForwardingPipelineConfigRequest: MessageTypeDefinition<_p4_v1_GetForwardingPipelineConfigRequest, _p4_v1_GetForwardingPipelineConfigRequest__Output>
      GetForwardingPipelineConfigResponse: MessageTypeDefinition<_p4_v1_GetForwardingPipelineConfigResponse, _p4_v1_GetForwardingPipelineConfigResponse__Output>
      IdleTimeoutNotification: MessageTypeDefinition<_p4_v1_IdleTimeoutNotification, _p4_v1_IdleTimeoutNotification__Output>
      Index: MessageTypeDefinition<_p4_v1_Index, _p4_v1_Index__Output>
      MasterArbitrationUpdate: MessageTypeDefinition<_p4_v1_MasterArbitrationUpdate, _p4_v1_MasterArbitrationUpdate__Output>
      MeterConfig: MessageTypeDefinition<_p4_v1_MeterConfig, _p4_v1_MeterConfig__Output>
      MeterCounterData: MessageTypeDefinition<_p4_v1_MeterCounterData, _p4_v1_MeterCounterData__Output>
      MeterEntry: MessageTypeDefinition<_p4_v1_MeterEntry, _p4_v1_MeterEntry__Output>
      MulticastGroupEntry: MessageTypeDefinition<_p4_v1_MulticastGroupEntry, _p4_v1_MulticastGroupEntry__Output>
      P4Data: MessageTypeDefinition<_p4_v1_P4Data, _p4_v1_P4Data__Output>
      P4Header: MessageTypeDefinition<_p4_v1_P4Header, _p4_v1_P4Header__Output>
      P4HeaderStack: MessageTypeDefinition<_p4_v1_P4HeaderStack, _p4_v1_P4HeaderStack__Output>
      P4HeaderUnion: MessageTypeDefinition<_p4_v1_P4HeaderUnion, _p4_v1_P4HeaderUnion__Output>
      P4HeaderUnionStack: MessageTypeDefinition<_p4_v1_P4HeaderUnionStack, _p4_v1_P4HeaderUnionStack__Output>
      P4Runtime: SubtypeConstructor<typeof grpc.Client, _p4_v1_P4RuntimeClient> & { service: _p4_v1_P4RuntimeDefinition }
      P4StructLike: MessageTypeDefinition<_p4_v1_P4StructLike, _p4_v1_P4StructLike__Output>
      P4Varbit: MessageTypeDefinition<_p4_v1_P4Varbit, _p4_v1_P4Varbit__Output>
      PacketIn: MessageTypeDefinition<_p4_v1_PacketIn, _p4_v1_PacketIn__Output>
      PacketMetadata: MessageTypeDefinition<_p4_v1_PacketMetadata, _p4_v1_PacketMetadata__Output>
      PacketOut: MessageTypeDefinition<_p4_v1_PacketOut, _p4_v1_PacketOut__Output>
      PacketOutError: MessageTypeDefinition<_p4_v1_PacketOutError, _p4_v1_PacketOutError__Output>
      PacketReplicationEngineEntry: MessageTypeDefinition<_p4_v1_PacketReplicationEngineEntry, _p4_v1_PacketReplicationEngineEntry__Output>
      ReadRequest: MessageTypeDefinition<_p4_v1_ReadRequest, _p4_v1_ReadRequest__Output>
      ReadResponse: MessageTypeDefinition<_p4_v1_ReadResponse, _p4_v1_ReadResponse__Output>
      RegisterEntry: MessageTypeDefinition<_p4_v1_RegisterEntry, _p4_v1_RegisterEntry__Output>
      Replica: MessageTypeDefinition<_p4_v1_Replica, _p4_v1_Replica__Output>
      Role: MessageTypeDefinition<_p4_v1_Role, _p4_v1_Role__Output>
      SdnPort: EnumTypeDefinition
      SetForwardingPipelineConfigRequest: MessageTypeDefinition<_p4_v1_SetForwardingPipelineConfigRequest, _p4_v1_SetForwardingPipelineConfigRequest__Output>
      SetForwardingPipelineConfigResponse: MessageTypeDefinition<_p4_v1_SetForwardingPipelineConfigResponse, _p4_v1_SetForwardingPipelineConfigResponse__Output>
      StreamError: MessageTypeDefinition<_p4_v1_StreamError, _p4_v1_StreamError__Output>
      StreamMessageRequest: MessageTypeDefinition<_p4_v1_StreamMessageRequest, _p4_v1_StreamMessageRequest__Output>
      StreamMessageResponse: MessageTypeDefinition<_p4_v1_StreamMessageResponse, _p4_v1_StreamMessageResponse__Output>
      StreamOtherError: MessageTypeDefinition<_p4_v1_StreamOtherError, _p4_v1_StreamOtherError__Output>
      TableAction: MessageTypeDefinition<_p4_v1_TableAction, _p4_v1_TableAction__Output>
      TableEntry: MessageTypeDefinition<_p4_v1_TableEntry, _p4_v1_TableEntry__Output>
      Uint128: MessageTypeDefinition<_p4_v1_Uint128, _p4_v1_Uint128__Output>
      Update: MessageTypeDefinition<_p4_v1_Update, _p4_v1_Update__Output>
      ValueSetEntry: MessageTypeDefinition<_p4_v1_ValueSetEntry, _p4_v1_ValueSetEntry__Output>
      ValueSetMember: MessageTypeDefinition<_p4_v1_ValueSetMember, _p4_v1_ValueSetMember__Output>
      WriteRequest: MessageTypeDefinition<_p4_v1_WriteRequest, _p4_v1_WriteRequest__Output>
      WriteResponse: MessageTypeDefinition<_p4_v1_WriteResponse, _p4_v1_WriteResponse__Output>
    }
  }
}

