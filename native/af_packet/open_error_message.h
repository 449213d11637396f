/* The message for a port that cannot be opened, saying what to fix. */
#ifndef P4INA_AF_PACKET_OPEN_ERROR_MESSAGE_H
#define P4INA_AF_PACKET_OPEN_ERROR_MESSAGE_H

#include <stddef.h>

/* `error` came from `syscall` (afp_open's failed_call); link_type is its
 * link_type, read for EPROTOTYPE. */
void afp_describe_open_error(char *out, size_t size, const char *ifname, int error, const char *syscall,
                             unsigned short link_type);

#endif
