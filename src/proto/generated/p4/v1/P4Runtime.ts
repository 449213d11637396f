// Original file: proto/p4/v1/p4runtime.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CapabilitiesRequest as _p4_v1_CapabilitiesRequest, CapabilitiesRequest__Output as _p4_v1_CapabilitiesRequest__Output } from '../../p4/v1/CapabilitiesRequest.js';
import type { CapabilitiesResponse as _p4_v1_CapabilitiesResponse, CapabilitiesResponse__Output as _p4_v1_CapabilitiesResponse__Output } from '../../p4/v1/CapabilitiesResponse.js';
import type { GetForwardingPipelineConfigRequest as _p4_v1_GetForwardingPipelineConfigRequest, GetForwardingPipelineConfigRequest__Output as _p4_v1_GetForwardingPipelineConfigRequest__Output } from '../../p4/v1/GetForwardingPipelineConfigRequest.js';
import type { GetForwardingPipelineConfigResponse as _p4_v1_GetForwardingPipelineConfigResponse, GetForwardingPipelineConfigResponse__Output as _p4_v1_GetForwardingPipelineConfigResponse__Output } from '../../p4/v1/GetForwardingPipelineConfigResponse.js';
import type { ReadRequest as _p4_v1_ReadRequest, ReadRequest__Output as _p4_v1_ReadRequest__Output } from '../../p4/v1/ReadRequest.js';
import type { ReadResponse as _p4_v1_ReadResponse, ReadResponse__Output as _p4_v1_ReadResponse__Output } from '../../p4/v1/ReadResponse.js';
import type { SetForwardingPipelineConfigRequest as _p4_v1_SetForwardingPipelineConfigRequest, SetForwardingPipelineConfigRequest__Output as _p4_v1_SetForwardingPipelineConfigRequest__Output } from '../../p4/v1/SetForwardingPipelineConfigRequest.js';
import type { SetForwardingPipelineConfigResponse as _p4_v1_SetForwardingPipelineConfigResponse, SetForwardingPipelineConfigResponse__Output as _p4_v1_SetForwardingPipelineConfigResponse__Output } from '../../p4/v1/SetForwardingPipelineConfigResponse.js';
import type { StreamMessageRequest as _p4_v1_StreamMessageRequest, StreamMessageRequest__Output as _p4_v1_StreamMessageRequest__Output } from '../../p4/v1/StreamMessageRequest.js';
import type { StreamMessageResponse as _p4_v1_StreamMessageResponse, StreamMessageResponse__Output as _p4_v1_StreamMessageResponse__Output } from '../../p4/v1/StreamMessageResponse.js';
import type { WriteRequest as _p4_v1_WriteRequest, WriteRequest__Output as _p4_v1_WriteRequest__Output } from '../../p4/v1/WriteRequest.js';
import type { WriteResponse as _p4_v1_WriteResponse, WriteResponse__Output as _p4_v1_WriteResponse__Output } from '../../p4/v1/WriteResponse.js';

export interface P4RuntimeClient extends grpc.Client {
  Capabilities(argument: _p4_v1_CapabilitiesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_CapabilitiesResponse__Output>): grpc.ClientUnaryCall;
  Capabilities(argument: _p4_v1_CapabilitiesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_p4_v1_CapabilitiesResponse__Output>): grpc.ClientUnaryCall;
  Capabilities(argument: _p4_v1_CapabilitiesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_CapabilitiesResponse__Output>): grpc.ClientUnaryCall;
  Capabilities(argument: _p4_v1_CapabilitiesRequest, callback: grpc.requestCallback<_p4_v1_CapabilitiesResponse__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _p4_v1_CapabilitiesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_CapabilitiesResponse__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _p4_v1_CapabilitiesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_p4_v1_CapabilitiesResponse__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _p4_v1_CapabilitiesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_CapabilitiesResponse__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _p4_v1_CapabilitiesRequest, callback: grpc.requestCallback<_p4_v1_CapabilitiesResponse__Output>): grpc.ClientUnaryCall;
  
  GetForwardingPipelineConfig(argument: _p4_v1_GetForwardingPipelineConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_GetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  GetForwardingPipelineConfig(argument: _p4_v1_GetForwardingPipelineConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_p4_v1_GetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  GetForwardingPipelineConfig(argument: _p4_v1_GetForwardingPipelineConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_GetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  GetForwardingPipelineConfig(argument: _p4_v1_GetForwardingPipelineConfigRequest, callback: grpc.requestCallback<_p4_v1_GetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  getForwardingPipelineConfig(argument: _p4_v1_GetForwardingPipelineConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_GetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  getForwardingPipelineConfig(argument: _p4_v1_GetForwardingPipelineConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_p4_v1_GetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  getForwardingPipelineConfig(argument: _p4_v1_GetForwardingPipelineConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_GetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  getForwardingPipelineConfig(argument: _p4_v1_GetForwardingPipelineConfigRequest, callback: grpc.requestCallback<_p4_v1_GetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  
  Read(argument: _p4_v1_ReadRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_p4_v1_ReadResponse__Output>;
  Read(argument: _p4_v1_ReadRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_p4_v1_ReadResponse__Output>;
  read(argument: _p4_v1_ReadRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_p4_v1_ReadResponse__Output>;
  read(argument: _p4_v1_ReadRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_p4_v1_ReadResponse__Output>;
  
  SetForwardingPipelineConfig(argument: _p4_v1_SetForwardingPipelineConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_SetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  SetForwardingPipelineConfig(argument: _p4_v1_SetForwardingPipelineConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_p4_v1_SetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  SetForwardingPipelineConfig(argument: _p4_v1_SetForwardingPipelineConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_SetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  SetForwardingPipelineConfig(argument: _p4_v1_SetForwardingPipelineConfigRequest, callback: grpc.requestCallback<_p4_v1_SetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  setForwardingPipelineConfig(argument: _p4_v1_SetForwardingPipelineConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_SetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  setForwardingPipelineConfig(argument: _p4_v1_SetForwardingPipelineConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_p4_v1_SetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  setForwardingPipelineConfig(argument: _p4_v1_SetForwardingPipelineConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_SetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  setForwardingPipelineConfig(argument: _p4_v1_SetForwardingPipelineConfigRequest, callback: grpc.requestCallback<_p4_v1_SetForwardingPipelineConfigResponse__Output>): grpc.ClientUnaryCall;
  
  StreamChannel(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_p4_v1_StreamMessageRequest, _p4_v1_StreamMessageResponse__Output>;
  StreamChannel(options?: grpc.CallOptions): grpc.ClientDuplexStream<_p4_v1_StreamMessageRequest, _p4_v1_StreamMessageResponse__Output>;
  streamChannel(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_p4_v1_StreamMessageRequest, _p4_v1_StreamMessageResponse__Output>;
  streamChannel(options?: grpc.CallOptions): grpc.ClientDuplexStream<_p4_v1_StreamMessageRequest, _p4_v1_StreamMessageResponse__Output>;
  
  Write(argument: _p4_v1_WriteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_WriteResponse__Output>): grpc.ClientUnaryCall;
  Write(argument: _p4_v1_WriteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_p4_v1_WriteResponse__Output>): grpc.ClientUnaryCall;
  Write(argument: _p4_v1_WriteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_WriteResponse__Output>): grpc.ClientUnaryCall;
  Write(argument: _p4_v1_WriteRequest, callback: grpc.requestCallback<_p4_v1_WriteResponse__Output>): grpc.ClientUnaryCall;
  write(argument: _p4_v1_WriteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_WriteResponse__Output>): grpc.ClientUnaryCall;
  write(argument: _p4_v1_WriteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_p4_v1_WriteResponse__Output>): grpc.ClientUnaryCall;
  write(argument: _p4_v1_WriteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_p4_v1_WriteResponse__Output>): grpc.ClientUnaryCall;
  write(argument: _p4_v1_WriteRequest, callback: grpc.requestCallback<_p4_v1_WriteResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface P4RuntimeHandlers extends grpc.UntypedServiceImplementation {
  Capabilities: grpc.handleUnaryCall<_p4_v1_CapabilitiesRequest__Output, _p4_v1_CapabilitiesResponse>;
  
  GetForwardingPipelineConfig: grpc.handleUnaryCall<_p4_v1_GetForwardingPipelineConfigRequest__Output, _p4_v1_GetForwardingPipelineConfigResponse>;
  
  Read: grpc.handleServerStreamingCall<_p4_v1_ReadRequest__Output, _p4_v1_ReadResponse>;
  
  SetForwardingPipelineConfig: grpc.handleUnaryCall<_p4_v1_SetForwardingPipelineConfigRequest__Output, _p4_v1_SetForwardingPipelineConfigResponse>;
  
  StreamChannel: grpc.handleBidiStreamingCall<_p4_v1_StreamMessageRequest__Output, _p4_v1_StreamMessageResponse>;
  
  Write: grpc.handleUnaryCall<_p4_v1_WriteRequest__Output, _p4_v1_WriteResponse>;
  
}

export interface P4RuntimeDefinition extends grpc.ServiceDefinition {
  Capabilities: MethodDefinition<_p4_v1_CapabilitiesRequest, _p4_v1_CapabilitiesResponse, _p4_v1_CapabilitiesRequest__Output, _p4_v1_CapabilitiesResponse__Output>
  GetForwardingPipelineConfig: MethodDefinition<_p4_v1_GetForwardingPipelineConfigRequest, _p4_v1_GetForwardingPipelineConfigResponse, _p4_v1_GetForwardingPipelineConfigRequest__Output, _p4_v1_GetForwardingPipelineConfigResponse__Output>
  Read: MethodDefinition<_p4_v1_ReadRequest, _p4_v1_ReadResponse, _p4_v1_ReadRequest__Output, _p4_v1_ReadResponse__Output>
  SetForwardingPipelineConfig: MethodDefinition<_p4_v1_SetForwardingPipelineConfigRequest, _p4_v1_SetForwardingPipelineConfigResponse, _p4_v1_SetForwardingPipelineConfigRequest__Output, _p4_v1_SetForwardingPipelineConfigResponse__Output>
  StreamChannel: MethodDefinition<_p4_v1_StreamMessageRequest, _p4_v1_StreamMessageResponse, _p4_v1_StreamMessageRequest__Output, _p4_v1_StreamMessageResponse__Output>
  Write: MethodDefinition<_p4_v1_WriteRequest, _p4_v1_WriteResponse, _p4_v1_WriteRequest__Output, _p4_v1_WriteResponse__Output>
}
