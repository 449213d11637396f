/* The batch layouts handed to JavaScript are little-endian, whatever the host. */
#ifndef P4INA_COMMON_WRITE_LE32_H
#define P4INA_COMMON_WRITE_LE32_H

#include <stdint.h>

static inline void write_le32(uint8_t *out, uint32_t value) {
  out[0] = (uint8_t)value;
  out[1] = (uint8_t)(value >> 8);
  out[2] = (uint8_t)(value >> 16);
  out[3] = (uint8_t)(value >> 24);
}

#endif
