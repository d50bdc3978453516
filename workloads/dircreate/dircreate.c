// SPDX-License-Identifier: GPL-2.0
/*
 * dircreate - many threads creating, stat'ing and unlinking empty files in
 * a few large directories.  On XFS formatted with -n size=64k every
 * directory block is a 16-page buffer, so this drives the directory buffer
 * mapping path (vmap or vm_map_ram) hard.
 *
 * Usage: dircreate [-t threads] [-d dirs] [-n files] [-p path]
 * Prints one line per phase: RESULT phase=NAME files=N usec=U files_per_s=R
 * Exits non-zero on the first failing system call.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum phase { CREATE, STAT, UNLINK, NR_PHASES };
static const char *phase_name[] = { "create", "stat", "unlink" };

static int nr_threads = 2, nr_dirs = 4;
static long nr_files = 20000;
static const char *root = ".";
static pthread_barrier_t barrier;
static volatile int failed;

static long long now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void file_path(char *buf, size_t len, long i)
{
	snprintf(buf, len, "%s/d%02ld/f%08ld", root, i % nr_dirs, i);
}

static int do_one(enum phase ph, long i)
{
	char path[4096];
	struct stat st;
	int fd;

	file_path(path, sizeof(path), i);
	switch (ph) {
	case CREATE:
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			break;
		return close(fd);
	case STAT:
		if (stat(path, &st))
			break;
		if (!S_ISREG(st.st_mode) || st.st_size != 0) {
			fprintf(stderr, "dircreate: %s: unexpected mode/size\n", path);
			return -1;
		}
		return 0;
	case UNLINK:
		return unlink(path);
	default:
		break;
	}
	fprintf(stderr, "dircreate: %s %s: %s\n", phase_name[ph], path, strerror(errno));
	return -1;
}

static void *worker(void *arg)
{
	long tid = (long)arg, i;
	int ph;

	for (ph = 0; ph < NR_PHASES; ph++) {
		pthread_barrier_wait(&barrier);
		/* Interleave the threads over the same directories. */
		for (i = tid; i < nr_files && !failed; i += nr_threads)
			if (do_one(ph, i))
				failed = 1;
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t *th;
	char path[4096];
	long long t0;
	int opt, ph;
	long i;

	while ((opt = getopt(argc, argv, "t:d:n:p:")) != -1) {
		switch (opt) {
		case 't': nr_threads = atoi(optarg); break;
		case 'd': nr_dirs = atoi(optarg); break;
		case 'n': nr_files = atol(optarg); break;
		case 'p': root = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-t threads] [-d dirs] [-n files] [-p path]\n", argv[0]);
			return 2;
		}
	}
	if (nr_threads < 1 || nr_dirs < 1 || nr_files < 1) {
		fprintf(stderr, "dircreate: -t, -d and -n must be positive\n");
		return 2;
	}
	for (i = 0; i < nr_dirs; i++) {
		snprintf(path, sizeof(path), "%s/d%02ld", root, i);
		if (mkdir(path, 0755) && errno != EEXIST) {
			fprintf(stderr, "dircreate: mkdir %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	th = calloc(nr_threads, sizeof(*th));
	if (!th)
		return 1;
	pthread_barrier_init(&barrier, NULL, nr_threads + 1);
	for (i = 0; i < nr_threads; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)i)) {
			fprintf(stderr, "dircreate: pthread_create failed\n");
			return 1;
		}
	for (ph = 0; ph < NR_PHASES; ph++) {
		long long us;

		t0 = now_usec();
		pthread_barrier_wait(&barrier);
		pthread_barrier_wait(&barrier);
		us = now_usec() - t0;
		if (failed)
			break;
		printf("RESULT phase=%s threads=%d dirs=%d files=%ld usec=%lld files_per_s=%lld\n",
		       phase_name[ph], nr_threads, nr_dirs, nr_files, us,
		       us ? nr_files * 1000000LL / us : 0);
		fflush(stdout);
	}
	for (i = 0; i < nr_threads; i++)
		pthread_join(th[i], NULL);
	for (i = 0; !failed && i < nr_dirs; i++) {
		snprintf(path, sizeof(path), "%s/d%02ld", root, i);
		if (rmdir(path)) {
			fprintf(stderr, "dircreate: rmdir %s: %s\n", path, strerror(errno));
			failed = 1;
		}
	}
	return failed ? 1 : 0;
}
