/* JavaScript errors from errno values, shaped like Node's own system errors. */
#ifndef P4INA_AF_PACKET_JS_ERRORS_H
#define P4INA_AF_PACKET_JS_ERRORS_H

#include <node_api.h>

/* An Error with .code = the errno name ("EPERM"), .errno = the number and
 * .syscall = the failed call; NULL if even that could not be made. */
napi_value afp_errno_error(napi_env env, int error, const char *syscall, const char *message);

/* Throws afp_errno_error(...); returns NULL for the caller to return. */
napi_value afp_throw_errno(napi_env env, int error, const char *syscall, const char *message);

/* The open error message for `ifname`, saying what to fix. */
void afp_describe_open_error(char *out, size_t size, const char *ifname, int error, const char *syscall,
                             unsigned short link_type);

#endif
