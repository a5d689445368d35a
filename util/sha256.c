/* util/sha256.c: SHA-256 of files and buffers via libcrypto's EVP interface. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "util/sha256.h"

static void to_hex(const unsigned char *md, char hex[65])
{
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

int sha256_file_hex(const char *path, char hex[65])
{
	unsigned char md[32];
	unsigned int mdlen = 0;
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1, saved = 0;
	ssize_t n;

	if (fd < 0 || !buf || !ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		goto out;
	while ((n = read(fd, buf, cap)) > 0)
		EVP_DigestUpdate(ctx, buf, n);
	if (n < 0)
		goto out;
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	to_hex(md, hex);
	ret = 0;
out:
	saved = errno;
	if (fd >= 0)
		close(fd);
	EVP_MD_CTX_free(ctx);
	free(buf);
	errno = saved;
	return ret;
}

void sha256_hex(const void *data, size_t len, char hex[65])
{
	unsigned char md[32];
	unsigned int mdlen = 0;

	EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL);
	to_hex(md, hex);
}
