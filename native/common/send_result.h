/* What both classes' send methods return. */
#ifndef P4INA_COMMON_SEND_RESULT_H
#define P4INA_COMMON_SEND_RESULT_H

#include <node_api.h>
#include <stddef.h>

/* { sent, sentBytes, error }: error is null when last_error is 0, else an
 * errno error (syscall sendmmsg) "sending on <label> failed: <strerror><detail>". */
napi_value js_send_result(napi_env env, unsigned sent, size_t sent_bytes, int last_error, const char *label,
                          const char *detail);

#endif
