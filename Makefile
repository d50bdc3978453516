# vmap layer rewrite + XFS conversion: build, boot and measure in QEMU.
# Variables (environment or command line):
#   KSRC=linux-source-6.1   package, tarball or tree to patch
#   SERIES=                 series point: empty = all, stock/0, N, or a patch name
#   CPUS=2 MEM=2G           guest size
#   DEBUG=1                 add images/debug.config (lockdep, DEBUG_VM, ...)
#   PLAN=...                guest steps, e.g. vmalloc,wl:dircreate
#   ACCEL=auto|kvm|tcg      QEMU accelerator (auto probes KVM, falls back to TCG)
#   VX_CACHE=~/.cache/vmapxfs  where trees, builds and kernels live
export KSRC SERIES CPUS MEM DEBUG PLAN ACCEL VX_CACHE TIMEOUT

.PHONY: run test deps tree kernel image boot selftest clean distclean

run:
	scripts/run.sh run

test:
	scripts/run.sh test

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
