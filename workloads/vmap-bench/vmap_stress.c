// SPDX-License-Identifier: GPL-2.0
/*
 * vmap_stress - vm_map_ram()/vm_unmap_ram() under concurrent random use,
 * and under a pattern that fragments the per-CPU vmap blocks.
 *
 * mode=random (lib/test_vmalloc.c has no vm_map_ram() test): one kthread
 * per online CPU (at most threads=), each bound to its CPU, runs ops=
 * operations on slots= mapping slots of its own.  An operation picks a
 * random slot.  An empty slot gets a vm_map_ram() of 1..max_pages pages,
 * taken from the thread's pool in a random order, and a tag is written
 * through the mapping into each page, at the slot's own offset; a live
 * slot is checked, through the mapping and through the direct map, and
 * unmapped.  So sizes, the order of unmaps and lifetimes are random, and
 * the live mappings of a thread share pages.  Sizes above the vmap block
 * limit take the other path of vm_map_ram().
 *
 * mode=frag: one kthread visits the online CPUs in turn.  On each visit
 * it climbs the sizes 1, 2, 4, ... 64 pages; for each size it holds the
 * first mapping until the visit ends and maps, checks and unmaps 1024 /
 * size more.  Each visit leaves, on that CPU, partly used blocks whose
 * free pages are too few or too fragmented for the sizes that follow, and
 * then no live region: what the original design never gave back, until
 * the vmap space ran out.  ops= counts vm_map_ram() calls.  Boot with
 * vmap_space_limit= to make running out take seconds, not years.
 *
 * mode=refill: vmap() areas of 1 page (2 with the guard page) until the
 * vmap space runs out (or ops= of them are live) and free them: that is
 * how much space there is.  Then vmap() 80% as many 1-page areas, free
 * them and call vm_unmap_aliases(), whose purge may keep them aside for
 * 1-page requests (mm/0019's per-CPU caches), and vmap() areas of 3 pages
 * (4) until the space runs out again.  That last fill must get at least
 * 90% of the pages the first one held: space kept aside for one size must
 * not make another size fail.  Boot with vmap_space_limit=, or the space
 * does not run out (a first fill that does not is a failure too).
 *
 * At the end (unmap_aliases=1) the module calls vm_unmap_aliases(): the
 * blocks it left fragmented are reclaimed and the lazily freed areas
 * purged, so that /proc/vmallocinfo shows what is left of it, if anything.
 *
 * Any vm_map_ram() that returns NULL, and any page that does not hold
 * what was written to it, is a failure.
 *
 * Test knob: inject_leak=1 keeps a vmalloc() area and a one-page
 * vm_map_ram() mapping from the end of init until the module is removed:
 * what a leak looks like to a check made while the module is loaded,
 * which must then report it.  (rmmod frees both, so the boot's later leak
 * checks are not disturbed.)
 *
 * Output (kernel log): "vmap_stress: RESULT mode=... threads=N ops=N
 * maps=N failures=N ns_per_op=N" and, per failure, a "FAIL" line.
 * Module init returns 0 when there was no failure (rmmod it afterwards),
 * -EIO otherwise.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/numa.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

static char *mode = "random";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "random, frag or refill");

static unsigned int ops = 100000;
module_param(ops, uint, 0444);
MODULE_PARM_DESC(ops, "random: operations per thread; frag: vm_map_ram() calls; refill: most areas live");

static unsigned int threads;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "random: at most this many threads (0: one per online CPU)");

static unsigned int max_pages = 128;
module_param(max_pages, uint, 0444);
MODULE_PARM_DESC(max_pages, "random: largest mapping, in pages");

static unsigned int slots = 32;
module_param(slots, uint, 0444);
MODULE_PARM_DESC(slots, "random: mapping slots per thread");

static unsigned int seed = 1;
module_param(seed, uint, 0444);
MODULE_PARM_DESC(seed, "random: seed (thread N uses seed + N)");

static bool unmap_aliases = true;
module_param(unmap_aliases, bool, 0444);
MODULE_PARM_DESC(unmap_aliases, "call vm_unmap_aliases() at the end, so that a leak check sees no lazy leftovers");

static bool inject_leak;
module_param(inject_leak, bool, 0444);
MODULE_PARM_DESC(inject_leak, "test the leak checks: hold a vmalloc() area and a vm_map_ram() mapping until rmmod");

/* inject_leak: what the module holds until it is removed. */
static void *leak_area;
static void *leak_map;
static struct page *leak_page;

static void leak_free(void)
{
	if (leak_map)
		vm_unmap_ram(leak_map, 1);
	if (leak_page)
		__free_page(leak_page);
	vfree(leak_area);
}

/* frag: the sizes climb to 64 pages, the vmap block limit on 64 bit. */
#define FRAG_ORDERS	7
#define FRAG_BLOCK	1024

struct slot {
	void *addr;
	unsigned int n, start, stride;
	u64 tag;
};

struct worker {
	struct task_struct *task;
	unsigned int id;
	int cpu;
	struct page **pool;
	unsigned int npool;
	struct page **vec;		/* the pages of one vm_map_ram() */
	struct slot *slot;
	struct rnd_state rnd;
	unsigned long maps, failures;
	u64 ns;
	struct completion done;
};

static atomic_t nfail_reports;

static void failure(struct worker *w, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	w->failures++;
	/* The first few tell the story; the count says the rest. */
	if (atomic_inc_return(&nfail_reports) > 10)
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("FAIL thread=%u cpu=%d %pV\n", w->id, raw_smp_processor_id(), &vaf);
	va_end(args);
}

static struct page *slot_page(struct worker *w, struct slot *s, unsigned int i)
{
	return w->pool[(s->start + i * s->stride) % w->npool];
}

/* Each slot writes its own word of every page: mappings share pages. */
static u64 *word(void *page_addr, unsigned int slot)
{
	return (u64 *)page_addr + slot;
}

static bool slot_map(struct worker *w, unsigned int k, unsigned int n)
{
	struct slot *s = &w->slot[k];
	unsigned int i;

	s->n = n;
	s->start = prandom_u32_state(&w->rnd) % w->npool;
	/* An odd stride visits n distinct pages of a power-of-two pool. */
	s->stride = (prandom_u32_state(&w->rnd) % w->npool) | 1;
	s->tag = ((u64)w->id << 48) ^ ((u64)w->maps << 8);
	for (i = 0; i < n; i++)
		w->vec[i] = slot_page(w, s, i);
	s->addr = vm_map_ram(w->vec, n, NUMA_NO_NODE);
	w->maps++;
	if (!s->addr) {
		failure(w, "vm_map_ram of %u pages returned NULL", n);
		return false;
	}
	for (i = 0; i < n; i++)
		*word(s->addr + i * PAGE_SIZE, k) = s->tag + i;
	return true;
}

static void slot_unmap(struct worker *w, unsigned int k)
{
	struct slot *s = &w->slot[k];
	unsigned int i;
	u64 via_map, via_page;

	for (i = 0; i < s->n; i++) {
		via_map = *word(s->addr + i * PAGE_SIZE, k);
		via_page = *word(page_address(slot_page(w, s, i)), k);
		if (via_map != s->tag + i || via_page != s->tag + i) {
			failure(w, "page %u of %u at %px: mapping has %llx, page has %llx, wrote %llx",
				i, s->n, s->addr, via_map, via_page, s->tag + i);
			break;
		}
	}
	vm_unmap_ram(s->addr, s->n);
	s->addr = NULL;
}

static void random_ops(struct worker *w)
{
	unsigned int i, k;

	for (i = 0; i < ops && !w->failures; i++) {
		k = prandom_u32_state(&w->rnd) % slots;
		if (w->slot[k].addr)
			slot_unmap(w, k);
		else
			slot_map(w, k, 1 + prandom_u32_state(&w->rnd) % max_pages);
		if (i % 256 == 0)
			cond_resched();
	}
	for (k = 0; k < slots; k++)
		if (w->slot[k].addr)
			slot_unmap(w, k);
}

/*
 * frag: slot k < FRAG_ORDERS holds the first mapping of size 1 << k of a
 * visit; slot FRAG_ORDERS is the one mapped and unmapped at once.
 */
static void frag_ops(struct worker *w)
{
	unsigned int cpu = cpumask_first(cpu_online_mask), order, j, k;

	while (w->maps < ops && !w->failures) {
		set_cpus_allowed_ptr(current, cpumask_of(cpu));
		for (order = 0; order < FRAG_ORDERS && !w->failures; order++) {
			for (j = 0; j <= FRAG_BLOCK >> order; j++) {
				k = j ? FRAG_ORDERS : order;
				if (!slot_map(w, k, 1U << order))
					break;
				if (j)
					slot_unmap(w, k);
			}
			cond_resched();
		}
		for (k = 0; k < FRAG_ORDERS; k++)
			if (w->slot[k].addr)
				slot_unmap(w, k);
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
	}
}

static int worker_fn(void *data)
{
	struct worker *w = data;
	u64 t0 = ktime_get_ns();

	if (!strcmp(mode, "frag"))
		frag_ops(w);
	else
		random_ops(w);
	w->ns = ktime_get_ns() - t0;
	complete(&w->done);
	/* Stay until kthread_stop(), which then reaps us. */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static void worker_free(struct worker *w)
{
	unsigned int i;

	if (w->pool)
		for (i = 0; i < w->npool && w->pool[i]; i++)
			__free_page(w->pool[i]);
	kfree(w->pool);
	kfree(w->vec);
	kfree(w->slot);
}

static int worker_init(struct worker *w, unsigned int id, int cpu,
		       unsigned int npool, unsigned int nslots)
{
	unsigned int i;

	w->id = id;
	w->cpu = cpu;
	w->npool = npool;
	init_completion(&w->done);
	prandom_seed_state(&w->rnd, (u64)seed + id);
	w->pool = kcalloc(npool, sizeof(*w->pool), GFP_KERNEL);
	w->vec = kcalloc(npool, sizeof(*w->vec), GFP_KERNEL);
	w->slot = kcalloc(nslots, sizeof(*w->slot), GFP_KERNEL);
	if (!w->pool || !w->vec || !w->slot)
		return -ENOMEM;
	for (i = 0; i < npool; i++) {
		w->pool[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!w->pool[i])
			return -ENOMEM;
	}
	w->task = kthread_create_on_node(worker_fn, w,
					 cpu < 0 ? NUMA_NO_NODE : cpu_to_node(cpu),
					 "vmap_stress/%u", id);
	if (IS_ERR(w->task)) {
		int err = PTR_ERR(w->task);

		w->task = NULL;
		return err;
	}
	if (cpu >= 0)
		kthread_bind(w->task, cpu);
	return 0;
}

/* refill: vmap() @n-page areas of @page until it fails or @max are live. */
static unsigned long refill_fill(struct page **pages, unsigned int n,
				 void **addrs, unsigned long max)
{
	unsigned long i;

	for (i = 0; i < max; i++) {
		addrs[i] = vmap(pages, n, VM_MAP, PAGE_KERNEL);
		if (!addrs[i])
			break;
		cond_resched();
	}
	return i;
}

static void refill_free(void **addrs, unsigned long nr)
{
	while (nr)
		vunmap(addrs[--nr]);
}

#define REFILL_SMALL	1
#define REFILL_LARGE	3

static int refill(void)
{
	struct page *pages[REFILL_LARGE], *page;
	unsigned long first, second, i;
	int failures, err = 0;
	void **addrs;
	bool full;

	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	addrs = kvmalloc_array(ops, sizeof(*addrs), GFP_KERNEL);
	if (!page || !addrs || !ops) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < REFILL_LARGE; i++)
		pages[i] = page;

	vm_unmap_aliases();
	first = refill_fill(pages, REFILL_SMALL, addrs, ops);
	refill_free(addrs, first);
	vm_unmap_aliases();
	/* Only 1-page requests since that purge: the next may cache all. */
	i = refill_fill(pages, REFILL_SMALL, addrs, first * 8 / 10);
	refill_free(addrs, i);
	vm_unmap_aliases();
	second = refill_fill(pages, REFILL_LARGE, addrs, ops);
	refill_free(addrs, second);
	vm_unmap_aliases();

	/* Pages of vmap space, the guard pages included. */
	full = first < ops;
	first *= REFILL_SMALL + 1;
	second *= REFILL_LARGE + 1;
	if (!full)
		pr_err("FAIL refill: %u vmap() calls did not run out of space: boot with vmap_space_limit= or raise ops=\n",
		       ops);
	if (second * 10 < first * 9)
		pr_err("FAIL refill: the 3-page fill got %lu pages of vmap space, the first 1-page fill %lu\n",
		       second, first);
	failures = !full + (second * 10 < first * 9);
	pr_info("RESULT mode=refill first_pages=%lu second_pages=%lu failures=%d\n",
		first, second, failures);
	if (failures)
		err = -EIO;
out:
	kvfree(addrs);
	if (page)
		__free_page(page);
	return err;
}

static int __init vmap_stress_init(void)
{
	bool frag = !strcmp(mode, "frag");
	unsigned int nthreads, npool, nslots, i = 0;
	unsigned long maps = 0, failures = 0;
	struct worker *w;
	u64 ns = 0;
	int cpu, err = 0;

	if (!strcmp(mode, "refill"))
		return refill();
	if (!frag && strcmp(mode, "random")) {
		pr_err("mode=%s: use random, frag or refill\n", mode);
		return -EINVAL;
	}
	/* Slots write a word each into a page; strides need a 2^n pool. */
	if (!frag && (!slots || slots > PAGE_SIZE / sizeof(u64) || !max_pages ||
		      max_pages > 1024 || !ops)) {
		pr_err("need 0 < slots <= %lu, 0 < max_pages <= 1024, ops > 0\n",
		       PAGE_SIZE / sizeof(u64));
		return -EINVAL;
	}
	nthreads = frag ? 1 : num_online_cpus();
	if (!frag && threads && threads < nthreads)
		nthreads = threads;
	npool = frag ? 1U << (FRAG_ORDERS - 1) : roundup_pow_of_two(max_pages);
	nslots = frag ? FRAG_ORDERS + 1 : slots;

	w = kcalloc(nthreads, sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	if (frag) {
		err = worker_init(&w[0], 0, -1, npool, nslots);
	} else {
		for_each_online_cpu(cpu) {
			if (i == nthreads)
				break;
			err = worker_init(&w[i], i, cpu, npool, nslots);
			if (err)
				break;
			i++;
		}
	}
	if (err)
		goto out;

	for (i = 0; i < nthreads; i++)
		wake_up_process(w[i].task);
	for (i = 0; i < nthreads; i++) {
		wait_for_completion(&w[i].done);
		maps += w[i].maps;
		failures += w[i].failures;
		ns = max(ns, w[i].ns);
	}
	if (unmap_aliases)
		vm_unmap_aliases();
	if (inject_leak) {
		leak_area = vmalloc(PAGE_SIZE);
		leak_page = alloc_page(GFP_KERNEL);
		if (leak_page)
			leak_map = vm_map_ram(&leak_page, 1, NUMA_NO_NODE);
		if (!leak_area || !leak_map)
			failures++;
	}
	pr_info("RESULT mode=%s threads=%u ops=%u maps=%lu failures=%lu ns_per_op=%llu\n",
		mode, nthreads, ops, maps, failures,
		maps ? div64_u64(ns * nthreads, maps) : 0);
	err = failures ? -EIO : 0;
	if (err)
		leak_free();
out:
	for (i = 0; i < nthreads; i++) {
		if (w[i].task)
			kthread_stop(w[i].task);
		worker_free(&w[i]);
	}
	kfree(w);
	return err;
}

static void __exit vmap_stress_exit(void)
{
	leak_free();
}

module_init(vmap_stress_init);
module_exit(vmap_stress_exit);
MODULE_DESCRIPTION("vm_map_ram()/vm_unmap_ram() concurrent random and fragmentation tests");
MODULE_LICENSE("GPL");
