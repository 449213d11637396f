/* The UdpBatchSocket methods, defined across addon.c, address_methods.c and
 * send_methods.c, and what they share. */
#ifndef P4INA_UDP_BATCH_METHODS_H
#define P4INA_UDP_BATCH_METHODS_H

#include <node_api.h>

#include "udp_socket.h"

/* The socket behind `this`, or NULL after throwing. Throws EBADF too when
 * `open` is asked for and the socket is closed. */
udpb_socket *udpb_unwrap_this(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv, bool open);

/* Names the socket in messages: "UDP socket 127.0.0.1:4000". */
void udpb_update_label(udpb_socket *socket);

napi_value udpb_bind(napi_env env, napi_callback_info info);
napi_value udpb_connect(napi_env env, napi_callback_info info);
napi_value udpb_disconnect(napi_env env, napi_callback_info info);
napi_value udpb_send(napi_env env, napi_callback_info info);
napi_value udpb_send_to(napi_env env, napi_callback_info info);

#endif
