# vmap layer rewrite + XFS conversion: build, boot and measure in QEMU.
# Variables (environment or command line):
#   KSRC=linux-source-6.1   package, tarball or tree to patch
#   SERIES=                 series point: empty = all, stock/0, N, or a patch name
#   CPUS=2 MEM=2G           guest size
#   DEBUG=1                 add images/debug.config (lockdep, DEBUG_VM, ...)
#   DEBUG=kasan             add images/kasan.config (KASAN, KASAN_VMALLOC)
#   VARIANT=xfsdebug        add images/variants/NAME.config (XFS_DEBUG, ...)
#   PLAN=...                guest steps, e.g. vmalloc,wl:dircreate
#   ACCEL=auto|kvm|tcg      QEMU accelerator (auto probes KVM, falls back to TCG)
#   VX_CACHE=~/.cache/vmapxfs  where trees, builds and kernels live
#   POINTS=... REPEAT=3     make compare / make bisect-check: which points;
#                           REPEAT=auto (REPEAT_TARGET=3 %, REPEAT_MAX=10)
#                           (compare: [TREE:]POINT, e.g. "stock full 6.12:stock")
#   VS=full                 make compare: the kernel of the "versus" table
#   GOOD= BAD= BISECT_PLAN= BISECT_METRIC= BISECT_ABOVE= BISECT_BELOW=
#                           make bisect: see scripts/bisect.sh
#   FSTESTS_CFG=dirblock_64k FSTESTS_TESTS=short FSTESTS_SRC= FSTESTS_TIMEOUT=
#   FSTESTS_URL= FSTESTS_COMMIT=  where fstests is fetched from, at which commit
#                           make fstests*: see scripts/fstests.sh
export KSRC SERIES CPUS MEM DEBUG VARIANT PLAN ACCEL VX_CACHE TIMEOUT
export FSTESTS_CFG FSTESTS_TESTS FSTESTS_SRC FSTESTS_URL FSTESTS_COMMIT FSTESTS_TIMEOUT FSTESTS_MEM
export POINTS REPEAT REPEAT_TARGET REPEAT_MAX VS GOOD BAD BISECT_PLAN BISECT_METRIC BISECT_ABOVE BISECT_BELOW

.PHONY: run test steps stress check deps tree kernel image boot selftest clean distclean \
	bisect-check compare bisect bisect-selftest fstests fstests-full fstests-compare fstests-selftest

run:
	scripts/run.sh run

test:
	scripts/run.sh test

# The guest steps a PLAN may name (images/steps/NAME.sh).
steps:
	@scripts/run.sh steps

# make test with long runs: 20000 test_vmalloc loops, 20000 vmapbench loops
# per case, 10^6 ordinary ops after the bad-input cases, 10^6 random stress
# ops per CPU, cold-cache dirs.
STRESS_PLAN = vmalloc,stress,vmapbench,badinput,wl:dircreate,wl:dircold,wl:fio-files
stress:
	PLAN="$${PLAN:-$(STRESS_PLAN)}" \
	VX_APPEND="vx.vmloops=20000 vx.vbloops=20000 vx.biops=1000000 vx.stressops=1000000 $${VX_APPEND:-}" \
	TIMEOUT="$${TIMEOUT:-3600}" scripts/run.sh test

# One point, short plan: vmalloc tests and dircreate.
check:
	scripts/run.sh check

# Every series point on its own builds, boots and passes make check.
bisect-check:
	scripts/bisect-check.sh

# Kernels at several series points side by side (Markdown, CSV, PNG).
compare:
	scripts/compare.sh

# git bisect run over the series points: the first bad patch.
bisect:
	scripts/bisect.sh

# make bisect must find a deliberately broken patch in a copy of the series.
bisect-selftest:
	scripts/bisect-selftest.sh

# fstests (the XFS test suite) on the kernel at SERIES: the short list at
# 64k directory blocks by default.
fstests:
	scripts/fstests.sh run

# The quick group (hours under TCG).
fstests-full:
	FSTESTS_TESTS="$${FSTESTS_TESTS:--g quick}" scripts/fstests.sh run

# Several kernels (POINTS, default stock baseline full): a table of test x
# kernel per config, and no failure beyond stock's known failures.
fstests-compare:
	scripts/fstests.sh compare

# fstests' short list must fail on a deliberately broken xfs_buf mapping.
fstests-selftest:
	scripts/fstests-selftest.sh

deps:
	scripts/deps.sh

tree: deps
	scripts/tree.sh

kernel: deps
	scripts/kernel.sh

image: deps
	scripts/image.sh "$$(scripts/kernel.sh)"

boot: deps
	d=$$(mktemp -d); scripts/boot.sh "$$(scripts/kernel.sh)" "$$d" shell

selftest:
	scripts/selftest.sh

# Remove results and staged kernels; keep the extracted trees and ccache.
clean:
	rm -rf results
	rm -rf "$${VX_CACHE:-$$HOME/.cache/vmapxfs}/kernels"

# Also remove extracted trees, build directories and ccache.
distclean: clean
	rm -rf "$${VX_CACHE:-$$HOME/.cache/vmapxfs}"
