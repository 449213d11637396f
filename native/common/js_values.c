/* See js_values.h. */
#include "js_values.h"

#include <stdio.h>
#include <string.h>

static bool option_value(napi_env env, napi_value options, const char *name, napi_value *value, napi_valuetype *type) {
  *value = NULL;
  *type = napi_undefined;
  if (options == NULL) return true;
  if (napi_typeof(env, options, type) != napi_ok) return false;
  if (*type == napi_undefined || *type == napi_null) {
    *type = napi_undefined;
    return true;
  }
  if (*type != napi_object) {
    napi_throw_type_error(env, NULL, "options must be an object");
    return false;
  }
  if (napi_get_named_property(env, options, name, value) != napi_ok) return false;
  return napi_typeof(env, *value, type) == napi_ok;
}

bool js_read_integer_option(napi_env env, napi_value options, const js_limits *spec, uint32_t *out) {
  *out = spec->fallback;
  napi_value value;
  napi_valuetype type;
  if (!option_value(env, options, spec->name, &value, &type)) return false;
  if (type == napi_undefined) return true;
  char what[64];
  snprintf(what, sizeof what, "options.%s", spec->name);
  return js_read_integer(env, value, what, spec->min, spec->max, out);
}

bool js_read_boolean_option(napi_env env, napi_value options, const char *name, bool fallback, bool *out) {
  *out = fallback;
  napi_value value;
  napi_valuetype type;
  if (!option_value(env, options, name, &value, &type)) return false;
  if (type == napi_undefined) return true;
  if (type != napi_boolean) {
    char message[96];
    snprintf(message, sizeof message, "options.%s must be a boolean", name);
    napi_throw_type_error(env, NULL, message);
    return false;
  }
  return napi_get_value_bool(env, value, out) == napi_ok;
}

bool js_read_string(napi_env env, napi_value value, const char *what, char *out, size_t size) {
  napi_valuetype type = napi_undefined;
  size_t length = 0;
  char message[128];
  if (value == NULL || napi_typeof(env, value, &type) != napi_ok || type != napi_string) {
    snprintf(message, sizeof message, "%s must be a string", what);
    napi_throw_type_error(env, NULL, message);
    return false;
  }
  if (napi_get_value_string_utf8(env, value, out, size, &length) != napi_ok) return false;
  if (length + 1 >= size || strlen(out) != length) {
    snprintf(message, sizeof message, "%s is too long or contains NUL characters", what);
    napi_throw_type_error(env, NULL, message);
    return false;
  }
  return true;
}

bool js_read_integer(napi_env env, napi_value value, const char *what, uint32_t min, uint32_t max, uint32_t *out) {
  napi_valuetype type = napi_undefined;
  double number = 0;
  if (value == NULL || napi_typeof(env, value, &type) != napi_ok || type != napi_number ||
      napi_get_value_double(env, value, &number) != napi_ok || number != (double)(int64_t)number || number < min ||
      number > max) {
    char message[160];
    snprintf(message, sizeof message, "%s must be an integer from %u to %u", what, min, max);
    napi_throw_range_error(env, NULL, message);
    return false;
  }
  *out = (uint32_t)number;
  return true;
}

bool js_set_property(napi_env env, napi_value object, const char *name, napi_value value) {
  return value != NULL && napi_set_named_property(env, object, name, value) == napi_ok;
}

napi_value js_number(napi_env env, double number) {
  napi_value value;
  return napi_create_double(env, number, &value) == napi_ok ? value : NULL;
}

napi_value js_boolean(napi_env env, bool flag) {
  napi_value value;
  return napi_get_boolean(env, flag, &value) == napi_ok ? value : NULL;
}

napi_value js_internal_failure(napi_env env, const char *class_name, const char *what) {
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) {
    char message[128];
    snprintf(message, sizeof message, "%s: %s failed inside N-API", class_name, what);
    napi_throw_error(env, NULL, message);
  }
  return NULL;
}

void *js_unwrap_this(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv, const char *not_this) {
  napi_value self;
  void *data = NULL;
  if (napi_get_cb_info(env, info, argc, argv, &self, NULL) != napi_ok) return NULL;
  if (napi_unwrap(env, self, &data) != napi_ok || data == NULL) {
    napi_throw_type_error(env, NULL, not_this);
    return NULL;
  }
  return data;
}

bool js_read_constructor_call(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv, napi_value *self,
                              const char *class_name) {
  napi_value new_target;
  if (napi_get_cb_info(env, info, argc, argv, self, NULL) != napi_ok) return false;
  if (napi_get_new_target(env, info, &new_target) != napi_ok || new_target == NULL) {
    char message[96];
    snprintf(message, sizeof message, "%s must be called with new", class_name);
    napi_throw_type_error(env, NULL, message);
    return false;
  }
  return true;
}
