/* See js_errors.h. */
#include "js_errors.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <uv.h>

napi_value afp_errno_error(napi_env env, int error, const char *syscall, const char *message) {
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

napi_value afp_throw_errno(napi_env env, int error, const char *syscall, const char *message) {
  napi_value value = afp_errno_error(env, error, syscall, message);
  if (value != NULL) napi_throw(env, value);
  else napi_throw_error(env, NULL, message);
  return NULL;
}

void afp_describe_open_error(char *out, size_t size, const char *ifname, int error, const char *syscall,
                             unsigned short link_type) {
  switch (error) {
    case EPERM:
    case EACCES:
      snprintf(out, size,
               "AF_PACKET needs root or CAP_NET_RAW: opening a packet socket on %s was refused; run as root "
               "(sudo) or give node the capability (setcap cap_net_raw+ep \"$(command -v node)\")",
               ifname);
      return;
    case ENODEV:
      snprintf(out, size, "no interface %s: check the name with `ip link` in this network namespace", ifname);
      return;
    case EPROTOTYPE:
      snprintf(out, size,
               "interface %s is not an Ethernet interface (ARPHRD link type %u): AF_PACKET ports carry "
               "Ethernet frames",
               ifname, (unsigned)link_type);
      return;
    case EAFNOSUPPORT:
      snprintf(out, size, "this kernel has no AF_PACKET support (%s for %s: %s)", syscall, ifname, strerror(error));
      return;
    default:
      snprintf(out, size, "opening an AF_PACKET port on %s failed: %s: %s", ifname, syscall, strerror(error));
  }
}
