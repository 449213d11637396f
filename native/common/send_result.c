/* See send_result.h. */
#include "send_result.h"

#include <stdio.h>
#include <string.h>

#include "js_errors.h"
#include "js_values.h"

napi_value js_send_result(napi_env env, unsigned sent, size_t sent_bytes, int last_error, const char *label,
                          const char *detail) {
  napi_value result, error;
  if (napi_create_object(env, &result) != napi_ok) return NULL;
  js_set_property(env, result, "sent", js_number(env, sent));
  js_set_property(env, result, "sentBytes", js_number(env, (double)sent_bytes));
  if (last_error != 0) {
    char message[200];
    snprintf(message, sizeof message, "sending on %s failed: %s%s", label, strerror(last_error), detail);
    error = js_errno_error(env, last_error, "sendmmsg", message);
  } else {
    napi_get_null(env, &error);
  }
  js_set_property(env, result, "error", error);
  return result;
}
