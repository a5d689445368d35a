/* util/sha256.h: content hashes for trace identity (OpenSSL's libcrypto does the work). */
#ifndef TRAX_UTIL_SHA256_H
#define TRAX_UTIL_SHA256_H

#include <stddef.h>

/* Hash a file's content into hex (65 bytes with the NUL). 0, or -1 with errno set. */
int sha256_file_hex(const char *path, char hex[65]);
/* Hash a buffer into hex. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
