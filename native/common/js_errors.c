/* See js_errors.h. */
#include "js_errors.h"

#include <uv.h>

napi_value js_errno_error(napi_env env, int error, const char *syscall, const char *message) {
  char name[64];
  /* libuv's codes are negated errno values on Linux; the _r variant never
   * allocates, also for codes it does not know. */
  uv_err_name_r(-error, name, sizeof name);
  napi_value code, text, number, call, result;
  if (napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code) != napi_ok ||
      napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text) != napi_ok ||
      napi_create_error(env, code, text, &result) != napi_ok)
    return NULL;
  if (napi_create_int32(env, -error, &number) == napi_ok) napi_set_named_property(env, result, "errno", number);
  if (syscall != NULL && napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &call) == napi_ok)
    napi_set_named_property(env, result, "syscall", call);
  return result;
}

napi_value js_throw_errno(napi_env env, int error, const char *syscall, const char *message) {
  napi_value value = js_errno_error(env, error, syscall, message);
  if (value != NULL) napi_throw(env, value);
  else napi_throw_error(env, NULL, message);
  return NULL;
}
