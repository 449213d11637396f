/* Small helpers between N-API values and C for the addons' classes. */
#ifndef P4INA_COMMON_JS_VALUES_H
#define P4INA_COMMON_JS_VALUES_H

#include <node_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct js_limits {
  const char *name;
  uint32_t fallback, min, max;
} js_limits;

/* Reads options[name] as an integer in [min, max] (fallback when absent);
 * false after throwing a RangeError. */
bool js_read_integer_option(napi_env env, napi_value options, const js_limits *spec, uint32_t *out);

/* Reads options[name] as a boolean (fallback when absent); false after throwing. */
bool js_read_boolean_option(napi_env env, napi_value options, const char *name, bool fallback, bool *out);

/* Reads a string argument into `out` (NUL-free, fits); false after throwing. */
bool js_read_string(napi_env env, napi_value value, const char *what, char *out, size_t size);

/* Reads an integer argument in [min, max]; false after throwing. */
bool js_read_integer(napi_env env, napi_value value, const char *what, uint32_t min, uint32_t max, uint32_t *out);

bool js_set_property(napi_env env, napi_value object, const char *name, napi_value value);
napi_value js_number(napi_env env, double number);
napi_value js_boolean(napi_env env, bool flag);

/* Throws "<class_name>: <what> failed inside N-API" unless an N-API call
 * already left an exception pending; NULL. */
napi_value js_internal_failure(napi_env env, const char *class_name, const char *what);

/* A constructor's arguments (napi_get_cb_info fills argc, argv and self);
 * false after throwing "<class_name> must be called with new" for a plain call. */
bool js_read_constructor_call(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv, napi_value *self,
                              const char *class_name);

/* The native object wrapped in `this` (napi_get_cb_info fills argc and
 * argv), or NULL after throwing a TypeError saying `not_this`. */
void *js_unwrap_this(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv, const char *not_this);

#endif
