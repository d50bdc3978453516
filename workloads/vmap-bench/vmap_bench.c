// SPDX-License-Identifier: GPL-2.0
/*
 * vmap_bench - cost of a map, touch, unmap cycle through vm_map_ram() /
 * vm_unmap_ram() and vmap() / vunmap(), with one CPU-bound kthread per CPU,
 * and a check that every fresh mapping reaches the pages it was given.
 *
 * For each API (mode=), each page count (sizes=) and each thread count
 * (threads=) the module runs one case: that many kthreads, thread i bound to
 * the i-th online CPU, each with its own pages (alloc_page(), once per case)
 * and a long-lived vmap() of them.  The threads start together and each
 * runs loops= iterations, or with ms= all run until ms milliseconds have
 * passed (a case long enough that a host hiccup of a few ms is a small
 * part of it), of:
 *
 *   map the pages, rotated by the iteration number (so that page j of the
 *     mapping is a different page each iteration),
 *   write a pattern (thread, iteration, page) to the first and last word of
 *     each page through the fresh mapping,
 *   read both words of every page back through the long-lived mapping,
 *   unmap.
 *
 * A mapping that does not reach the right pages (a stale TLB entry, a
 * wrong page table) shows up as a pattern mismatch.  The time of the whole
 * loop, divided by the iterations it ran, is the thread's ns per iteration.
 *
 * Output, one line per case (to the kernel log):
 *   vmap_bench: RESULT api=vm_map_ram pages=4 threads=2 loops=10000
 *     ops=20000 ns_per_op=AVG min=MIN max=MAX tlb=N cal=N failures=N
 * where loops is the mean of the threads' iterations, ops their sum,
 * ns_per_op/min/max are over the threads and tlb/cal are the
 * TLB-shootdown and function-call IPIs received by all CPUs while the
 * threads ran (x86 irq_stat; -1 where it cannot be read).  Then
 *   vmap_bench: FAIL ...               one per failed check (at most
 *                                      VB_MAX_REPORTS per thread)
 *   vmap_bench: SKIP threads=N ...     thread counts above online CPUs
 *   vmap_bench: SUMMARY cases=N failures=N
 *
 * Everything runs in module init, which returns 0 when every check
 * passed (the module then holds nothing and is removed with rmmod), -EIO
 * when any check failed (failures= in SUMMARY is then non-zero), -EINVAL
 * for bad parameters and -ENOMEM when a case could not be set up.  Unlike
 * lib/test_vmalloc.c it does not return -EAGAIN after a clean run: busybox
 * insmod retries a failed finit_module() with init_module(), which would
 * run every case twice (it still does so after a failure).
 *
 * mode=floor (x86 only) is the same loop without the vmap layer: the
 * page table cost of the operation on this kernel, which the other modes
 * are compared with (x_floor).  Each thread reserves, once, an area of
 * VB_FLOOR_RING slots of pages= pages with vmap(), and finds the PTEs of
 * its pages (lookup_address()).  An iteration takes the next slot, writes
 * the slot's PTEs for the iteration's pages, touches and checks them as
 * above, and clears the PTEs: no allocator, no lock, no global flush.
 * The PTEs are not global, so that one CR3 reload, every VB_FLOOR_RING
 * iterations before a slot comes round again, drops this CPU's stale TLB
 * entries for all slots; that is the local invalidation correctness
 * needs.  (An invlpg per page would be the literal equivalent; under
 * QEMU's TCG each invlpg flushes the whole software TLB, which would make
 * the floor slower than the layers it is a floor for.)
 *
 * Test knob: inject_corruption=1 makes thread 0 write one wrong word half
 * way through every case (in its first iteration with ms=); the check must
 * then report a FAIL per case.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/numa.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#if defined(CONFIG_X86) && defined(CONFIG_SMP)
#include <asm/hardirq.h>
#define VB_HAVE_IPIS 1
#endif
#ifdef CONFIG_X86
#include <asm/pgtable.h>
#include <asm/special_insns.h>
#define VB_HAVE_FLOOR 1
#endif

#define VB_FLOOR_RING	64	/* floor slots: one CR3 reload per round */

#define VB_MAX_LIST	16	/* entries in threads= and sizes= */
#define VB_MAX_PAGES	1024	/* largest sizes= entry */
#define VB_MAX_REPORTS	5	/* FAIL lines printed per thread and case */
#define VB_WORDS	(PAGE_SIZE / sizeof(u64))

static unsigned int vb_threads[VB_MAX_LIST] = { 1, 2, 4, 8 };
static unsigned int vb_nthreads = 4;
module_param_array_named(threads, vb_threads, uint, &vb_nthreads, 0444);
MODULE_PARM_DESC(threads,
		 "Thread counts to run, comma separated (default: 1,2,4,8; counts above the online CPUs are skipped)");

static unsigned int vb_sizes[VB_MAX_LIST] = { 1, 4, 16, 64, 65 };
static unsigned int vb_nsizes = 5;
module_param_array_named(sizes, vb_sizes, uint, &vb_nsizes, 0444);
MODULE_PARM_DESC(sizes,
		 "Pages per mapping, comma separated (default: 1,4,16,64,65; max 1024)");

static unsigned int loops = 10000;
module_param(loops, uint, 0444);
MODULE_PARM_DESC(loops, "Iterations per thread and case (default: 10000)");

static unsigned int vb_ms;
module_param_named(ms, vb_ms, uint, 0444);
MODULE_PARM_DESC(ms, "Run each case for this many milliseconds (at most 60000) instead of loops= iterations (default: 0, use loops=)");

static char *mode = "both";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "What to measure: both (vm_map_ram, vmap), all (both and floor) or a list of vm_map_ram, vmap, floor (default: both)");

static bool inject_corruption;
module_param(inject_corruption, bool, 0444);
MODULE_PARM_DESC(inject_corruption,
		 "Test the check: thread 0 writes one wrong word per case (default: 0)");

enum vb_api { VB_VM_MAP_RAM, VB_VMAP, VB_FLOOR, VB_NR_APIS };

static const char * const vb_api_name[VB_NR_APIS] = {
	[VB_VM_MAP_RAM]	= "vm_map_ram",
	[VB_VMAP]	= "vmap",
	[VB_FLOOR]	= "floor",
};

struct vb_case;

struct vb_thread {
	struct vb_case *c;
	struct task_struct *task;
	unsigned int id;
	int cpu;
	struct page **pages;	/* the thread's pages, in allocation order */
	struct page **order;	/* the same, rotated for one iteration */
	void *check;		/* long-lived vmap() of pages */
	void *floor;		/* mode=floor: VB_FLOOR_RING slots of pages */
	pte_t **ptes;		/* ... and their PTEs */
	unsigned int done;	/* iterations completed */
	u64 ns;
	unsigned long failures;
	unsigned int reports;
};

struct vb_case {
	enum vb_api api;
	unsigned int nr_pages;
	unsigned int nr_threads;
	bool stop;			/* ms=: the threads' time is up */
	atomic_t not_ready;
	atomic_t not_done;
	struct completion ready;	/* every thread is set up */
	struct completion go;		/* start the measurement */
	struct completion done;		/* every thread has finished its loop */
	struct vb_thread *t;
};

/* The words written to page @idx of thread @id in iteration @iter. */
static u64 vb_pattern(unsigned int id, unsigned int iter, unsigned int idx)
{
	return ((u64)(id + 1) << 56) | ((u64)iter << 16) | idx;
}

static u64 *vb_word(void *addr, unsigned int page, bool last)
{
	return (u64 *)addr + (size_t)page * VB_WORDS + (last ? VB_WORDS - 1 : 0);
}

static void vb_fail(struct vb_thread *t, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	t->failures++;
	if (t->reports > VB_MAX_REPORTS)
		return;
	if (t->reports++ == VB_MAX_REPORTS) {
		pr_err("FAIL api=%s pages=%u threads=%u thread=%u: further failures of this thread not printed\n",
		       vb_api_name[t->c->api], t->c->nr_pages, t->c->nr_threads,
		       t->id);
		return;
	}
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("FAIL api=%s pages=%u threads=%u thread=%u cpu=%d %pV\n",
	       vb_api_name[t->c->api], t->c->nr_pages, t->c->nr_threads,
	       t->id, t->cpu, &vaf);
	va_end(args);
}

static void vb_teardown(struct vb_thread *t)
{
	unsigned int i;

	if (t->check)
		vunmap(t->check);
	/* Its PTEs may map other pages now: vunmap() clears whatever is there. */
	if (t->floor)
		vunmap(t->floor);
	kfree(t->ptes);
	if (t->pages) {
		for (i = 0; i < t->c->nr_pages; i++)
			if (t->pages[i])
				__free_page(t->pages[i]);
	}
	kfree(t->pages);
	kfree(t->order);
}

#ifdef VB_HAVE_FLOOR
/* Reserve the floor's slots and find their PTEs (see mode=floor above). */
static int vb_floor_setup(struct vb_thread *t)
{
	unsigned int n = t->c->nr_pages * VB_FLOOR_RING, i, level;
	struct page **fill;

	/* Any pages will do to get the page tables: the thread's own. */
	fill = kcalloc(n, sizeof(*fill), GFP_KERNEL);
	t->ptes = kcalloc(n, sizeof(*t->ptes), GFP_KERNEL);
	if (!fill || !t->ptes) {
		kfree(fill);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		fill[i] = t->pages[i % t->c->nr_pages];
	t->floor = vmap(fill, n, VM_MAP, PAGE_KERNEL);
	kfree(fill);
	if (!t->floor)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		t->ptes[i] = lookup_address((unsigned long)t->floor + i * PAGE_SIZE,
					    &level);
		if (!t->ptes[i] || level != PG_LEVEL_4K)
			return -EINVAL;
	}
	return 0;
}

/* Map the iteration's pages at the slot for @iter: PTE writes only. */
static void *vb_floor_map(struct vb_thread *t, unsigned int iter)
{
	unsigned int n = t->c->nr_pages, j;
	pte_t **ptes = t->ptes + (iter % VB_FLOOR_RING) * n;
	pgprot_t prot = __pgprot(pgprot_val(PAGE_KERNEL) & ~_PAGE_GLOBAL);

	for (j = 0; j < n; j++)
		set_pte(ptes[j], mk_pte(t->order[j], prot));
	return t->floor + (size_t)(iter % VB_FLOOR_RING) * n * PAGE_SIZE;
}

static void vb_floor_unmap(struct vb_thread *t, unsigned int iter, void *addr)
{
	unsigned int n = t->c->nr_pages, j;
	pte_t **ptes = t->ptes + (iter % VB_FLOOR_RING) * n;

	for (j = 0; j < n; j++)
		pte_clear(&init_mm, (unsigned long)addr + j * PAGE_SIZE, ptes[j]);
	/* Before slot 0 comes round again: drop every slot's TLB entries. */
	if (iter % VB_FLOOR_RING == VB_FLOOR_RING - 1) {
		preempt_disable();
		native_write_cr3(__native_read_cr3());
		preempt_enable();
	}
}
#else
static int vb_floor_setup(struct vb_thread *t)
{
	return -EOPNOTSUPP;
}

static void *vb_floor_map(struct vb_thread *t, unsigned int iter)
{
	return NULL;
}

static void vb_floor_unmap(struct vb_thread *t, unsigned int iter, void *addr)
{
}
#endif

static int vb_setup(struct vb_thread *t)
{
	unsigned int n = t->c->nr_pages;
	unsigned int i;

	t->pages = kcalloc(n, sizeof(*t->pages), GFP_KERNEL);
	t->order = kcalloc(n, sizeof(*t->order), GFP_KERNEL);
	if (!t->pages || !t->order)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		t->pages[i] = alloc_page(GFP_KERNEL);
		if (!t->pages[i])
			return -ENOMEM;
	}
	t->check = vmap(t->pages, n, VM_MAP, PAGE_KERNEL);
	if (!t->check)
		return -ENOMEM;
	if (t->c->api == VB_FLOOR)
		return vb_floor_setup(t);
	return 0;
}

/* Check every page through the long-lived mapping after iteration @iter. */
static void vb_check(struct vb_thread *t, unsigned int iter)
{
	unsigned int i, w;
	u64 want, got;

	for (i = 0; i < t->c->nr_pages; i++) {
		want = vb_pattern(t->id, iter, i);
		for (w = 0; w < 2; w++) {
			got = READ_ONCE(*vb_word(t->check, i, w));
			if (got != want)
				vb_fail(t, "iter=%u page=%u word=%s got=%#llx want=%#llx",
					iter, i, w ? "last" : "first", got, want);
		}
	}
}

/* Another iteration: loops= of them, or until the case's time is up. */
static bool vb_more(struct vb_case *c, unsigned int iter)
{
	return vb_ms ? !READ_ONCE(c->stop) && iter < UINT_MAX : iter < loops;
}

static void vb_loop(struct vb_thread *t)
{
	struct vb_case *c = t->c;
	unsigned int n = c->nr_pages;
	unsigned int inject = vb_ms ? 0 : loops / 2;
	unsigned int iter, j, p;
	void *addr;
	u64 v;

	for (iter = 0; vb_more(c, iter); iter++) {
		/* Slot j of this mapping is page (iter + j) mod n. */
		p = iter % n;
		for (j = 0; j < n; j++) {
			t->order[j] = t->pages[p];
			if (++p == n)
				p = 0;
		}

		if (c->api == VB_VM_MAP_RAM)
			addr = vm_map_ram(t->order, n, NUMA_NO_NODE);
		else if (c->api == VB_FLOOR)
			addr = vb_floor_map(t, iter);
		else
			addr = vmap(t->order, n, VM_MAP, PAGE_KERNEL);
		if (!addr) {
			vb_fail(t, "iter=%u %s() of %u pages returned NULL; stopping this thread",
				iter, vb_api_name[c->api], n);
			return;
		}

		p = iter % n;
		for (j = 0; j < n; j++) {
			v = vb_pattern(t->id, iter, p);
			WRITE_ONCE(*vb_word(addr, j, false), v);
			WRITE_ONCE(*vb_word(addr, j, true), v);
			if (++p == n)
				p = 0;
		}
		if (inject_corruption && t->id == 0 && iter == inject)
			WRITE_ONCE(*vb_word(addr, 0, false),
				   vb_pattern(t->id, iter, iter % n) ^ 1);

		vb_check(t, iter);

		if (c->api == VB_VM_MAP_RAM)
			vm_unmap_ram(addr, n);
		else if (c->api == VB_FLOOR)
			vb_floor_unmap(t, iter, addr);
		else
			vunmap(addr);
		t->done++;
		cond_resched();
	}
}

static int vb_thread_fn(void *arg)
{
	struct vb_thread *t = arg;
	struct vb_case *c = t->c;
	u64 start;
	int err;

	t->cpu = raw_smp_processor_id();
	err = vb_setup(t);
	if (err)
		vb_fail(t, "setup of %u pages failed: %d", c->nr_pages, err);
	if (atomic_dec_and_test(&c->not_ready))
		complete(&c->ready);
	wait_for_completion(&c->go);

	if (!err) {
		start = ktime_get_ns();
		vb_loop(t);
		t->ns = ktime_get_ns() - start;
	}
	if (atomic_dec_and_test(&c->not_done))
		complete(&c->done);

	/* Free the pages only after the IPI count was read: kthread_stop(). */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	vb_teardown(t);
	return 0;
}

/* TLB-shootdown and function-call IPIs received so far, over all CPUs. */
static bool vb_ipis(s64 *tlb, s64 *cal)
{
#ifdef VB_HAVE_IPIS
	unsigned int cpu;

	*tlb = 0;
	*cal = 0;
	for_each_possible_cpu(cpu) {
		*tlb += per_cpu(irq_stat, cpu).irq_tlb_count;
		*cal += per_cpu(irq_stat, cpu).irq_call_count;
	}
	return true;
#else
	*tlb = -1;
	*cal = -1;
	return false;
#endif
}

/* A long case must not look like a hung task: wake up once a second. */
static void vb_wait(struct completion *done)
{
	while (!wait_for_completion_timeout(done, HZ))
		;
}

/* Run one case; returns its failure count, or a negative errno. */
static long vb_run_case(enum vb_api api, unsigned int nr_pages,
			unsigned int nr_threads)
{
	struct vb_case c = {
		.api = api,
		.nr_pages = nr_pages,
		.nr_threads = nr_threads,
	};
	s64 tlb0, cal0, tlb1, cal1;
	u64 ns, sum = 0, ops = 0, lo = U64_MAX, hi = 0;
	unsigned long failures = 0;
	unsigned int i, created = 0;
	long ret = 0;
	int cpu;

	atomic_set(&c.not_ready, nr_threads);
	atomic_set(&c.not_done, nr_threads);
	init_completion(&c.ready);
	init_completion(&c.go);
	init_completion(&c.done);
	c.t = kcalloc(nr_threads, sizeof(*c.t), GFP_KERNEL);
	if (!c.t)
		return -ENOMEM;

	cpu = cpumask_first(cpu_online_mask);
	for (i = 0; i < nr_threads; i++) {
		struct task_struct *task;

		if (cpu >= nr_cpu_ids) {
			pr_err("FAIL api=%s pages=%u threads=%u: CPUs went offline\n",
			       vb_api_name[api], nr_pages, nr_threads);
			ret = 1;
			goto stop;
		}
		c.t[i].c = &c;
		c.t[i].id = i;
		task = kthread_create_on_cpu(vb_thread_fn, &c.t[i], cpu,
					     "vmap_bench/%u");
		if (IS_ERR(task)) {
			pr_err("FAIL api=%s pages=%u threads=%u: kthread on CPU %d: %ld\n",
			       vb_api_name[api], nr_pages, nr_threads, cpu,
			       PTR_ERR(task));
			ret = 1;
			goto stop;
		}
		/* Keep the task_struct for kthread_stop() whatever happens. */
		get_task_struct(task);
		c.t[i].task = task;
		created++;
		cpu = cpumask_next(cpu, cpu_online_mask);
	}

	for (i = 0; i < nr_threads; i++)
		wake_up_process(c.t[i].task);
	vb_wait(&c.ready);
	vb_ipis(&tlb0, &cal0);
	complete_all(&c.go);
	if (vb_ms) {
		msleep(vb_ms);
		WRITE_ONCE(c.stop, true);
	}
	vb_wait(&c.done);
	vb_ipis(&tlb1, &cal1);
	if (tlb0 >= 0) {
		tlb1 -= tlb0;
		cal1 -= cal0;
	}

	for (i = 0; i < nr_threads; i++) {
		struct vb_thread *t = &c.t[i];

		if (!vb_ms && t->done != loops && !t->failures)
			vb_fail(t, "completed %u of %u iterations", t->done,
				loops);
		if (vb_ms && !t->done && !t->failures)
			vb_fail(t, "completed no iteration in %u ms", vb_ms);
		failures += t->failures;
		ops += t->done;
		ns = t->done ? div_u64(t->ns, t->done) : 0;
		sum += ns;
		lo = min(lo, ns);
		hi = max(hi, ns);
	}
	pr_info("RESULT api=%s pages=%u threads=%u loops=%llu ops=%llu ns_per_op=%llu min=%llu max=%llu tlb=%lld cal=%lld failures=%lu\n",
		vb_api_name[api], nr_pages, nr_threads,
		div_u64(ops, nr_threads), ops, div_u64(sum, nr_threads), lo,
		hi, tlb1, cal1, failures);
	ret = failures;

stop:
	for (i = 0; i < created; i++) {
		/* Never woken (setup failed early): kthread_stop() reaps it. */
		kthread_stop(c.t[i].task);
		put_task_struct(c.t[i].task);
	}
	kfree(c.t);
	return ret;
}

/*
 * mode=: "both" (vm_map_ram and vmap), "all" (both and floor) or a comma
 * separated list of vm_map_ram, vmap, floor.
 */
static int vb_parse_mode(bool *run)
{
	char *list, *p, *name;
	enum vb_api api;
	int err = 0;

	if (!strcmp(mode, "both") || !strcmp(mode, "all")) {
		run[VB_VM_MAP_RAM] = true;
		run[VB_VMAP] = true;
		run[VB_FLOOR] = !strcmp(mode, "all") && IS_ENABLED(VB_HAVE_FLOOR);
		return 0;
	}
	list = kstrdup(mode, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	p = list;
	while ((name = strsep(&p, ",")) && !err) {
		for (api = 0; api < VB_NR_APIS; api++)
			if (!strcmp(name, vb_api_name[api]))
				break;
		if (api == VB_NR_APIS) {
			pr_err("mode=%s: want both, all, or a list of vm_map_ram, vmap, floor\n",
			       mode);
			err = -EINVAL;
		} else if (api == VB_FLOOR && !IS_ENABLED(VB_HAVE_FLOOR)) {
			pr_err("mode=floor: only on x86\n");
			err = -EINVAL;
		} else {
			run[api] = true;
		}
	}
	kfree(list);
	return err;
}

static int vb_check_params(void)
{
	int i;

	if (!loops) {
		pr_err("loops=0: want at least 1\n");
		return -EINVAL;
	}
	/* The module's init sleeps that long per case: no hung-task warning. */
	if (vb_ms > 60000) {
		pr_err("ms=%u: want at most 60000\n", vb_ms);
		return -EINVAL;
	}
	for (i = 0; i < vb_nsizes; i++) {
		if (!vb_sizes[i] || vb_sizes[i] > VB_MAX_PAGES) {
			pr_err("sizes: %u pages: want 1..%u\n", vb_sizes[i],
			       VB_MAX_PAGES);
			return -EINVAL;
		}
	}
	for (i = 0; i < vb_nthreads; i++) {
		if (!vb_threads[i]) {
			pr_err("threads: 0: want at least 1\n");
			return -EINVAL;
		}
	}
	return 0;
}

static int __init vmap_bench_init(void)
{
	bool run[VB_NR_APIS] = { false };
	unsigned long failures = 0;
	unsigned int online, cases = 0;
	enum vb_api api;
	unsigned int s, n;
	int err;
	long ret;

	err = vb_parse_mode(run);
	if (!err)
		err = vb_check_params();
	if (err)
		return err;

	online = num_online_cpus();
#ifndef VB_HAVE_IPIS
	pr_info("IPI counts are not readable on this architecture: tlb=-1 cal=-1\n");
#endif
	for (api = 0; api < VB_NR_APIS; api++) {
		if (!run[api])
			continue;
		for (s = 0; s < vb_nsizes; s++) {
			for (n = 0; n < vb_nthreads; n++) {
				if (vb_threads[n] > online) {
					pr_info("SKIP threads=%u: only %u CPUs online\n",
						vb_threads[n], online);
					continue;
				}
				ret = vb_run_case(api, vb_sizes[s],
						  vb_threads[n]);
				if (ret < 0) {
					pr_err("FAIL api=%s pages=%u threads=%u: %ld\n",
					       vb_api_name[api], vb_sizes[s],
					       vb_threads[n], ret);
					failures++;
					err = ret;
				} else {
					failures += ret;
				}
				cases++;
			}
		}
	}
	pr_info("SUMMARY cases=%u failures=%lu\n", cases, failures);

	if (err)
		return err;
	return failures ? -EIO : 0;
}

/* Nothing to undo: every case freed what it used before init returned. */
static void __exit vmap_bench_exit(void)
{
}

module_init(vmap_bench_init);
module_exit(vmap_bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vm_map_ram()/vmap() map-touch-unmap benchmark and check");
