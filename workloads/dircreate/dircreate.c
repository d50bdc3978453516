// SPDX-License-Identifier: GPL-2.0
/*
 * dircreate - many threads creating, stat'ing and unlinking empty files in
 * a few large directories.  On XFS formatted with -n size=64k every
 * directory block is a 16-page buffer, so this drives the directory buffer
 * mapping path (vmap or vm_map_ram) hard.
 *
 * Usage: dircreate [-t threads] [-d dirs] [-n files] [-p path] [-r rounds]
 *                  [-M rounds] [-F]
 * -F: fault injection; each worker marks itself make-it-fail (after
 * mlockall(), so that only the filesystem's allocations can fail, not the
 * process's own page faults).  An ENOMEM is then an allowed outcome, and
 * so are its consequences (ENOENT for a file whose create failed, EEXIST
 * or ENOTEMPTY for one whose unlink failed): they are counted and the
 * workload goes on; any other error still stops it.
 * Phases: create, then -r rounds of coldstat (drop the page, inode and
 * buffer caches, then stat every file: every directory and inode cluster
 * buffer is read, mapped and, at the next drop, freed and unmapped again),
 * stat (warm), -M rounds of miss (stat names that do not exist, new names
 * each round, so that no negative dentry answers: every lookup goes to
 * the directory's hash blocks), unlink.
 * Prints one line per phase: RESULT phase=NAME files=N usec=U files_per_s=R,
 * and what the kernel counted during the phase, also per 1000 files:
 * TLB-shootdown and function-call IPIs (/proc/interrupts TLB: and CAL:)
 * and, when the guest registered the kprobe events vx/vm_map_ram,
 * vx/vm_unmap_ram, vx/vmap and vx/vunmap (images/lib.sh vcalls_setup),
 * the calls to them: maps = vm_map_ram + vmap, unmaps = vm_unmap_ram +
 * vunmap.
 * Exits non-zero on the first failing system call.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum phase { CREATE, COLDSTAT, STAT, MISS, UNLINK, NR_PHASES };
static const char *phase_name[] = { "create", "coldstat", "stat", "miss", "unlink" };

#define MAX_ROUNDS	100
static int seq[NR_PHASES + 2 * MAX_ROUNDS], nr_seq;

static int nr_threads = 2, nr_dirs = 4, nr_rounds, nr_miss, fault;
static volatile int miss_round;	/* names of the current miss round */
static long nr_files = 20000;
static const char *root = ".";
static pthread_barrier_t barrier;
static volatile int failed;
static long tolerated;		/* -F: errors that injected faults explain */

/* Under -F, is the error of the call that just failed an allowed one? */
static int tolerate(void)
{
	if (!fault || (errno != ENOMEM && errno != ENOENT && errno != EEXIST &&
		       errno != ENOTEMPTY))
		return 0;
	__atomic_fetch_add(&tolerated, 1, __ATOMIC_RELAXED);
	return 1;
}

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
	case COLDSTAT:
	case STAT:
		if (stat(path, &st))
			break;
		if (!S_ISREG(st.st_mode) || st.st_size != 0) {
			fprintf(stderr, "dircreate: %s: unexpected mode/size\n", path);
			return -1;
		}
		return 0;
	case MISS:
		snprintf(path, sizeof(path), "%s/d%02ld/m%03d-%08ld", root,
			 i % nr_dirs, miss_round, i);
		if (!stat(path, &st)) {
			fprintf(stderr, "dircreate: %s: exists\n", path);
			return -1;
		}
		if (errno == ENOENT)
			return 0;
		break;
	case UNLINK:
		return unlink(path);
	default:
		break;
	}
	if (tolerate())
		return 0;
	fprintf(stderr, "dircreate: %s %s: %s\n", phase_name[ph], path, strerror(errno));
	return -1;
}

static void *worker(void *arg)
{
	long tid = (long)arg, i;
	int k, fd;

	if (fault) {
		fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
		if (fd < 0 || write(fd, "1\n", 2) != 2) {
			fprintf(stderr, "dircreate: make-it-fail: %s\n", strerror(errno));
			failed = 1;
		}
		if (fd >= 0)
			close(fd);
	}
	for (k = 0; k < nr_seq; k++) {
		pthread_barrier_wait(&barrier);
		/* Interleave the threads over the same directories. */
		for (i = tid; i < nr_files && !failed; i += nr_threads)
			if (do_one(seq[k], i))
				failed = 1;
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

/* Kernel counters sampled around each phase. */
enum counter { C_TLB, C_CAL, C_MAPS, C_UNMAPS, NR_COUNTERS };
static const char *counter_name[] = { "tlb_ipis", "cal_ipis", "maps", "unmaps" };
static int have_calls;

/* The sum over CPUs of the /proc/interrupts row LABEL ("TLB:", "CAL:"). */
static long long irq_sum(const char *label)
{
	char line[8192], *p, *end;
	long long sum = 0, v;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		p = line;
		while (*p == ' ')
			p++;
		if (strncmp(p, label, strlen(label)))
			continue;
		p += strlen(label);
		for (;;) {
			v = strtoll(p, &end, 10);
			if (end == p)
				break;
			sum += v;
			p = end;
		}
	}
	fclose(f);
	return sum;
}

/*
 * Calls seen by the vx/ kprobe events, from kprobe_profile ("NAME HITS
 * MISSES": a missed hit is a call too).
 */
static void call_counts(long long c[NR_COUNTERS])
{
	char name[128];
	long long hits, missed;
	FILE *f = fopen("/sys/kernel/debug/tracing/kprobe_profile", "r");

	if (!f)
		return;
	while (fscanf(f, "%127s %lld %lld", name, &hits, &missed) == 3) {
		if (!strcmp(name, "vm_map_ram") || !strcmp(name, "vmap"))
			c[C_MAPS] += hits + missed, have_calls = 1;
		else if (!strcmp(name, "vm_unmap_ram") || !strcmp(name, "vunmap"))
			c[C_UNMAPS] += hits + missed, have_calls = 1;
	}
	fclose(f);
}

static void counters(long long c[NR_COUNTERS])
{
	memset(c, 0, NR_COUNTERS * sizeof(*c));
	c[C_TLB] = irq_sum("TLB:");
	c[C_CAL] = irq_sum("CAL:");
	call_counts(c);
}

/* Write back, then drop the page cache, dentries, inodes and (through the
 * XFS buffer cache shrinker) the metadata buffers. */
static int drop_caches(void)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3\n", 2) != 2) {
		fprintf(stderr, "dircreate: drop_caches: %s\n", strerror(errno));
		return -1;
	}
	return close(fd);
}

int main(int argc, char **argv)
{
	pthread_t *th;
	char path[4096];
	long long t0, us[NR_PHASES] = { 0 };
	long long c0[NR_COUNTERS], c1[NR_COUNTERS], cnt[NR_PHASES][NR_COUNTERS] = { { 0 } };
	int opt, ph, k, c, runs[NR_PHASES] = { 0 };
	long i;

	while ((opt = getopt(argc, argv, "t:d:n:p:r:M:F")) != -1) {
		switch (opt) {
		case 't': nr_threads = atoi(optarg); break;
		case 'd': nr_dirs = atoi(optarg); break;
		case 'n': nr_files = atol(optarg); break;
		case 'p': root = optarg; break;
		case 'r': nr_rounds = atoi(optarg); break;
		case 'M': nr_miss = atoi(optarg); break;
		case 'F': fault = 1; break;
		default:
			fprintf(stderr, "usage: %s [-t threads] [-d dirs] [-n files] [-p path] [-r rounds] [-M rounds] [-F]\n", argv[0]);
			return 2;
		}
	}
	if (nr_threads < 1 || nr_dirs < 1 || nr_files < 1 || nr_rounds < 0 ||
	    nr_rounds > MAX_ROUNDS || nr_miss < 0 || nr_miss > MAX_ROUNDS) {
		fprintf(stderr, "dircreate: -t, -d and -n must be positive, -r and -M 0..%d\n",
			MAX_ROUNDS);
		return 2;
	}
	seq[nr_seq++] = CREATE;
	for (k = 0; k < nr_rounds; k++)
		seq[nr_seq++] = COLDSTAT;
	seq[nr_seq++] = STAT;
	for (k = 0; k < nr_miss; k++)
		seq[nr_seq++] = MISS;
	seq[nr_seq++] = UNLINK;
	for (i = 0; i < nr_dirs; i++) {
		snprintf(path, sizeof(path), "%s/d%02ld", root, i);
		if (mkdir(path, 0755) && errno != EEXIST) {
			fprintf(stderr, "dircreate: mkdir %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	if (fault && mlockall(MCL_CURRENT | MCL_FUTURE)) {
		fprintf(stderr, "dircreate: mlockall: %s\n", strerror(errno));
		return 1;
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
	/*
	 * Every phase, even after a failure: the workers wait at the barriers
	 * of all of them (they skip the work once failed is set), and a main
	 * thread that stopped early would leave them there for ever.
	 */
	for (k = 0; k < nr_seq; k++) {
		ph = seq[k];
		counters(c0);
		t0 = now_usec();
		/* A cold round starts from empty caches; the drop is timed,
		 * as it is where the buffers are freed and unmapped. */
		if (ph == COLDSTAT && !failed && drop_caches())
			failed = 1;
		if (ph == MISS)
			miss_round = runs[MISS];
		pthread_barrier_wait(&barrier);
		pthread_barrier_wait(&barrier);
		us[ph] += now_usec() - t0;
		counters(c1);
		for (c = 0; c < NR_COUNTERS; c++)
			cnt[ph][c] += c1[c] - c0[c];
		runs[ph]++;
	}
	for (ph = 0; ph < NR_PHASES && !failed; ph++) {
		long files = nr_files * runs[ph];

		if (!runs[ph])
			continue;
		printf("RESULT phase=%s threads=%d dirs=%d files=%ld usec=%lld files_per_s=%lld",
		       phase_name[ph], nr_threads, nr_dirs, files, us[ph],
		       us[ph] ? files * 1000000LL / us[ph] : 0);
		for (c = 0; c < NR_COUNTERS; c++) {
			if (c >= C_MAPS && !have_calls)
				break;
			printf(" %s=%lld %s_per_1000=%.3f", counter_name[c], cnt[ph][c],
			       counter_name[c], cnt[ph][c] * 1000.0 / files);
		}
		printf("\n");
	}
	fflush(stdout);
	for (i = 0; i < nr_threads; i++)
		pthread_join(th[i], NULL);
	for (i = 0; !failed && i < nr_dirs; i++) {
		snprintf(path, sizeof(path), "%s/d%02ld", root, i);
		if (rmdir(path) && !tolerate()) {
			fprintf(stderr, "dircreate: rmdir %s: %s\n", path, strerror(errno));
			failed = 1;
		}
	}
	if (fault)
		printf("RESULT phase=faults tolerated_errors=%ld\n", tolerated);
	return failed ? 1 : 0;
}
