/* JavaScript errors from errno values, shaped like Node's own system errors. */
#ifndef P4INA_COMMON_JS_ERRORS_H
#define P4INA_COMMON_JS_ERRORS_H

#include <node_api.h>

/* An Error with .code = the errno name ("EPERM"), .errno = the number and
 * .syscall = the failed call; NULL if even that could not be made. */
napi_value js_errno_error(napi_env env, int error, const char *syscall, const char *message);

/* Throws js_errno_error(...); returns NULL for the caller to return. */
napi_value js_throw_errno(napi_env env, int error, const char *syscall, const char *message);

#endif
