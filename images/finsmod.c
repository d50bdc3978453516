// SPDX-License-Identifier: GPL-2.0
/*
 * finsmod FILE [PARAMS...]: load a module with one finit_module() call.
 *
 * busybox insmod retries a failed finit_module() with init_module(), so a
 * test module that reports by failing its init (test_vmalloc returns
 * -EAGAIN to unload itself) runs twice.  This loads exactly once and
 * exits with the module's init error (0 if it loaded).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char params[4096] = "";
	size_t len = 0;
	int fd, i;

	if (argc < 2) {
		fprintf(stderr, "usage: finsmod FILE [PARAM=VALUE...]\n");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		int n = snprintf(params + len, sizeof(params) - len, "%s%s",
				 len ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= sizeof(params) - len) {
			fprintf(stderr, "finsmod: parameters too long\n");
			return 2;
		}
		len += n;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "finsmod: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (syscall(SYS_finit_module, fd, params, 0) != 0) {
		fprintf(stderr, "finsmod: %s: %s\n", argv[1], strerror(errno));
		return errno & 0x7f ? errno & 0x7f : 1;
	}
	return 0;
}
