// SPDX-License-Identifier: GPL-2.0
/*
 * vmap_badinput - vm_map_ram()/vm_unmap_ram() must survive bad input.
 *
 * Each case feeds the vmap layer something a buggy caller could: a zero
 * or absurd page count, an address that was never mapped, the wrong page
 * count, a second unmap, a vmalloc() address.  The layer must refuse it
 * (with a WARN, at most once per kind) and go on working: after the cases
 * the module runs ops= ordinary map/write/check/unmap cycles of 1 to 16
 * pages and checks every page through its direct mapping.
 *
 * Every eighth cycle also vmalloc()s and vfree()s as many pages.
 *
 * Two cases race two kthreads (race_ops= rounds each, 64-page mappings,
 * so that a block dies every 16 rounds):
 * - race_double_unmap: both unmap the same mapping at once, and one of
 *   them also calls vm_unmap_aliases(), which purges the area of a block
 *   that died: the losing unmap must be refused, whatever state the
 *   block is in (KASAN reports a use of a freed area);
 * - race_aliases_flushed: one thread maps, writes and unmaps while the
 *   other calls vm_unmap_aliases() in a loop; every region unmapped
 *   before a vm_unmap_aliases() call began must be unreachable once it
 *   returned, also through the TLB of the CPU that wrote it (probed with
 *   copy_from_kernel_nofault(), where no PTE maps it any more).  As a
 *   control, the same probe right after each unmap, before any flush,
 *   counts the stale entries it can see (control_stale_before_flush=;
 *   0 on kernels that flush at unmap: the baseline, debug_pagealloc).
 *
 * With allow_nomem=1 (fault injection: failslab, fail_page_alloc) a
 * vm_map_ram() or vmalloc() that returns NULL is counted, not a failure,
 * and the module marks its own task make-it-fail while the cycles run
 * (so that loading the module is not what fails); only_ops=1 skips the
 * bad-input cases.
 *
 * Output (kernel log): "vmap_badinput: CASE name ok|FAIL ...", then
 * "vmap_badinput: SUMMARY cases=N failures=N ops=N nomem=N".  Module init
 * returns 0 when everything passed (rmmod it afterwards), -EIO otherwise.
 *
 * Only for kernels with our vmap layer: stock kernels BUG() on several of
 * these cases.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/numa.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/fault-inject.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#define NPAGES	66	/* enough for a vm_map_ram() past VMAP_MAX_ALLOC */

static unsigned int ops = 100000;
module_param(ops, uint, 0444);
MODULE_PARM_DESC(ops, "ordinary map/unmap cycles after the bad-input cases");

static bool allow_nomem;
module_param(allow_nomem, bool, 0444);
MODULE_PARM_DESC(allow_nomem, "count NULL from vm_map_ram()/vmalloc() instead of failing");

static bool only_ops;
module_param(only_ops, bool, 0444);
MODULE_PARM_DESC(only_ops, "skip the bad-input cases");

static unsigned int race_ops = 5000;
module_param(race_ops, uint, 0444);
MODULE_PARM_DESC(race_ops, "rounds of each race case");

static struct page *pages[NPAGES];
static int ncases, nfailures;
static unsigned int nomem;

static void report(const char *name, bool ok, const char *why)
{
	ncases++;
	if (ok) {
		pr_info("CASE %s ok\n", name);
	} else {
		nfailures++;
		pr_err("CASE %s FAIL %s\n", name, why);
	}
}

/* Does @addr still map pages[0..@n) (the caller must know it should)? */
static bool maps_pages(void *addr, unsigned int n, u32 tag)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		*(u32 *)(addr + i * PAGE_SIZE) = tag + i;
	for (i = 0; i < n; i++)
		if (*(u32 *)page_address(pages[i]) != tag + i)
			return false;
	return true;
}

static void case_counts(void)
{
	void *p;

	p = vm_map_ram(pages, 0, NUMA_NO_NODE);
	report("map_zero_pages", !p, "vm_map_ram(pages, 0) returned a mapping");
	if (p)
		vm_unmap_ram(p, 0);

	/* More pages than there is RAM: refused before @pages is read. */
	p = vm_map_ram(pages, totalram_pages() + 1, NUMA_NO_NODE);
	report("map_too_many_pages", !p, "vm_map_ram(pages, > RAM) returned a mapping");
}

static void case_unmap(const char *name, unsigned int n, unsigned int bad_n,
		       int twice)
{
	void *p = vm_map_ram(pages, n, NUMA_NO_NODE);

	if (!p) {
		report(name, false, "setup vm_map_ram failed");
		return;
	}
	if (twice) {
		vm_unmap_ram(p, n);
		vm_unmap_ram(p, n);	/* must be refused */
		report(name, true, NULL);
		return;
	}
	vm_unmap_ram(p, bad_n);		/* must be refused, mapping kept */
	report(name, maps_pages(p, n, 0x1000), "the mapping did not survive");
	vm_unmap_ram(p, n);
}

static void case_addresses(void)
{
	void *v, *p;

	/* Not a region start: one page into a live 4-page mapping. */
	p = vm_map_ram(pages, 4, NUMA_NO_NODE);
	if (p) {
		vm_unmap_ram(p + PAGE_SIZE, 1);
		report("unmap_inside_mapping", maps_pages(p, 4, 0x2000),
		       "the mapping did not survive");
		vm_unmap_ram(p, 4);
	} else {
		report("unmap_inside_mapping", false, "setup vm_map_ram failed");
	}

	/* Near the top of vmalloc space: percpu areas, never a vmap block. */
	vm_unmap_ram((void *)(VMALLOC_END - 4 * PAGE_SIZE), 1);
	report("unmap_never_mapped", true, NULL);

	v = vmalloc(4 * PAGE_SIZE);
	if (v) {
		vm_unmap_ram(v, 4);
		vm_unmap_ram(v, 65);
		memset(v, 0x5a, 4 * PAGE_SIZE);	/* must still be mapped */
		report("unmap_vmalloc_address", ((u8 *)v)[3 * PAGE_SIZE] == 0x5a,
		       "the vmalloc area was damaged");
		vfree(v);
	} else {
		report("unmap_vmalloc_address", false, "setup vmalloc failed");
	}
}

/* ---- races between two kthreads ---------------------------------------- */

#define RACE_PAGES	64	/* VMAP_MAX_ALLOC on 64 bit: 16 per block */

struct race {
	struct completion go, done;
	void *volatile p;		/* the mapping of this round */
	bool stop;
	/* race_aliases_flushed */
	atomic_long_t unmapped;		/* rounds whose unmap returned */
	atomic_long_t flushed;		/* all of them before this are flushed */
};

static int race_unmap_thread(void *arg)
{
	struct race *r = arg;

	for (;;) {
		wait_for_completion(&r->go);
		if (READ_ONCE(r->stop))
			break;
		vm_unmap_ram(r->p, RACE_PAGES);
		vm_unmap_aliases();
		complete(&r->done);
	}
	complete(&r->done);
	return 0;
}

/*
 * Start @fn on another CPU (the next online one) with @r; on failure the
 * case @name fails.  Returns whether it started.
 */
static bool race_start(int (*fn)(void *), struct race *r, const char *name)
{
	struct task_struct *t;
	int cpu = cpumask_next(smp_processor_id(), cpu_online_mask);

	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	init_completion(&r->go);
	init_completion(&r->done);
	t = kthread_create(fn, r, "vmap_race");
	if (IS_ERR(t)) {
		report(name, false, "kthread_create failed");
		return false;
	}
	if (cpu != smp_processor_id())
		kthread_bind(t, cpu);
	wake_up_process(t);
	return true;
}

static void case_race_double_unmap(void)
{
	struct race r = { };
	unsigned int i;

	if (!race_start(race_unmap_thread, &r, "race_double_unmap"))
		return;
	for (i = 0; i < race_ops; i++) {
		r.p = vm_map_ram(pages, RACE_PAGES, NUMA_NO_NODE);
		if (!r.p)
			break;
		complete(&r.go);
		vm_unmap_ram(r.p, RACE_PAGES);
		wait_for_completion(&r.done);
		cond_resched();
	}
	WRITE_ONCE(r.stop, true);
	complete(&r.go);
	wait_for_completion(&r.done);
	report("race_double_unmap", i == race_ops, "vm_map_ram failed");
}

static int race_flush_thread(void *arg)
{
	struct race *r = arg;
	long n;

	while (!READ_ONCE(r->stop)) {
		n = atomic_long_read(&r->unmapped);
		vm_unmap_aliases();
		atomic_long_set(&r->flushed, n);
		cond_resched();
	}
	complete(&r->done);
	return 0;
}

#define RACE_RING	64
static unsigned long addr[RACE_RING];	/* the last regions unmapped */
static long seq[RACE_RING];		/* and the rounds they were in */

static void case_race_aliases_flushed(void)
{
	long checked = 0, n, probes = 0, stale = 0, control = 0;
	struct race r = { };
	unsigned int i, j, k;
	void *p;
	u32 v;

	if (!race_start(race_flush_thread, &r, "race_aliases_flushed"))
		return;
	for (i = 0; i < race_ops; i++) {
		p = vm_map_ram(pages, RACE_PAGES, NUMA_NO_NODE);
		if (!p)
			break;
		for (j = 0; j < RACE_PAGES; j++)
			*(u32 *)(p + j * PAGE_SIZE) = i;
		vm_unmap_ram(p, RACE_PAGES);
		/*
		 * The control: right after the unmap, before any flush, this
		 * CPU's TLB still maps the region on a lazily flushing
		 * kernel, and the probe must be able to see that.
		 */
		if (!vmalloc_to_page(p) && !copy_from_kernel_nofault(&v, p, sizeof(v)))
			control++;
		addr[i % RACE_RING] = (unsigned long)p;
		seq[i % RACE_RING] = i + 1;
		atomic_long_set(&r.unmapped, i + 1);

		/*
		 * Each region unmapped before the last completed
		 * vm_unmap_aliases() began, and not mapped again since, must
		 * be gone from this CPU's TLB too.  An address that something
		 * maps again (a later round, or anybody once the block died
		 * and was purged) is skipped.
		 */
		n = atomic_long_read(&r.flushed);
		for (k = 0; k < RACE_RING && k <= i; k++) {
			unsigned int e = (i - k) % RACE_RING;

			if (seq[e] > n || seq[e] <= checked)
				continue;
			for (j = 0; j < k; j++)
				if (addr[(i - j) % RACE_RING] == addr[e])
					break;
			if (j < k || vmalloc_to_page((void *)addr[e]))
				continue;
			probes++;
			if (!copy_from_kernel_nofault(&v, (void *)addr[e], sizeof(v)))
				stale++;
		}
		checked = max(checked, n);
		cond_resched();
	}
	WRITE_ONCE(r.stop, true);
	wait_for_completion(&r.done);
	pr_info("race_aliases_flushed: rounds=%u probes=%ld stale=%ld control_stale_before_flush=%ld\n",
		i, probes, stale, control);
	report("race_aliases_flushed", i == race_ops && !stale,
	       stale ? "a region was still reachable after vm_unmap_aliases()" :
	       "vm_map_ram failed");
}

static void ordinary_ops_loop(void)
{
	unsigned int i, n;
	void *p;

	for (i = 0; i < ops; i++) {
		n = 1 + get_random_u32_below(16);
		if (i % 8 == 0) {
			p = vmalloc(n * PAGE_SIZE);
			if (p) {
				memset(p, i, n * PAGE_SIZE);
				vfree(p);
			} else if (allow_nomem) {
				nomem++;
			} else {
				report("ordinary_ops", false, "vmalloc failed");
				return;
			}
		}
		p = vm_map_ram(pages, n, NUMA_NO_NODE);
		if (!p && allow_nomem) {
			nomem++;
			continue;
		}
		if (!p || !maps_pages(p, n, i << 5)) {
			report("ordinary_ops", false, p ? "wrong pages mapped" :
			       "vm_map_ram failed");
			if (p)
				vm_unmap_ram(p, n);
			return;
		}
		vm_unmap_ram(p, n);
		cond_resched();
	}
	report("ordinary_ops", true, NULL);
}

static void ordinary_ops(void)
{
#ifdef CONFIG_FAULT_INJECTION
	if (allow_nomem)
		current->make_it_fail = 1;
#endif
	ordinary_ops_loop();
#ifdef CONFIG_FAULT_INJECTION
	current->make_it_fail = 0;
#endif
}

static int __init vmap_badinput_init(void)
{
	int i, ret = 0;

	for (i = 0; i < NPAGES; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i]) {
			ret = -ENOMEM;
			goto out;
		}
	}

	if (!only_ops) {
		case_counts();
		case_unmap("unmap_wrong_count_small", 4, 2, 0);
		case_unmap("unmap_wrong_count_same_order", 4, 3, 0);
		case_unmap("unmap_wrong_count_same_order_more", 3, 4, 0);
		case_unmap("unmap_wrong_count_smaller_order", 8, 4, 0);
		case_unmap("unmap_wrong_count_large", 65, 66, 0);
		case_unmap("unmap_twice_small", 4, 4, 1);
		case_unmap("unmap_twice_large", 65, 65, 1);
		case_addresses();
		case_race_double_unmap();
		case_race_aliases_flushed();
	}
	ordinary_ops();

	pr_info("SUMMARY cases=%d failures=%d ops=%u nomem=%u\n", ncases,
		nfailures, ops, nomem);
	ret = nfailures ? -EIO : 0;
out:
	for (i = 0; i < NPAGES && pages[i]; i++)
		__free_page(pages[i]);
	return ret;
}

static void __exit vmap_badinput_exit(void)
{
}

module_init(vmap_badinput_init);
module_exit(vmap_badinput_exit);
MODULE_DESCRIPTION("vm_map_ram()/vm_unmap_ram() bad-input tests");
MODULE_LICENSE("GPL");
