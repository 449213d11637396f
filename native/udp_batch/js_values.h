/* Small helpers between N-API values and C for the addon's methods. */
#ifndef P4INA_UDP_BATCH_JS_VALUES_H
#define P4INA_UDP_BATCH_JS_VALUES_H

#include <node_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct udpb_limits {
  const char *name;
  uint32_t fallback, min, max;
} udpb_limits;

/* Reads options[name] as an integer in [min, max] (fallback when absent);
 * false after throwing a RangeError. */
bool udpb_read_integer_option(napi_env env, napi_value options, const udpb_limits *spec, uint32_t *out);

/* Reads options[name] as a boolean (fallback when absent); false after throwing. */
bool udpb_read_boolean_option(napi_env env, napi_value options, const char *name, bool fallback, bool *out);

/* Reads a string argument into `out` (NUL-free, fits); false after throwing. */
bool udpb_read_string(napi_env env, napi_value value, const char *what, char *out, size_t size);

/* Reads an integer argument in [min, max]; false after throwing. */
bool udpb_read_integer(napi_env env, napi_value value, const char *what, uint32_t min, uint32_t max, uint32_t *out);

bool udpb_set_property(napi_env env, napi_value object, const char *name, napi_value value);
napi_value udpb_number(napi_env env, double number);
napi_value udpb_boolean(napi_env env, bool flag);

/* Throws unless an N-API call already left an exception pending; NULL. */
napi_value udpb_internal_failure(napi_env env, const char *what);

#endif
