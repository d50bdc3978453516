#!/bin/sh
# Build the guest initramfs for kernel directory K (argument): busybox-static,
# xfsprogs, fio, fs_mark, f2fs-tools' mkfs and fsck, e2fsprogs' chattr
# (with the shared libraries ldd names), our guest tools and
# the kernel's modules (test_vmalloc.ko and, built by kernel.sh from
# workloads/*/Kbuild, vmap_bench.ko) in /lib/modules, plus images/init, the
# guest steps (images/steps/ as /steps, images/lib.sh as /usr/lib/vx.sh) and
# workloads/.
# Prints the initramfs path on stdout.
set -eu
. "$(dirname "$0")/lib/common.sh"
need_cmd busybox cpio gzip ldd gcc mkfs.xfs xfs_repair xfs_db fio fs_mark mkfs.f2fs fsck.f2fs chattr
k=${1:?usage: image.sh KERNEL_DIR}
bins=$(for b in mkfs.xfs xfs_repair xfs_db fio fs_mark mkfs.f2fs fsck.f2fs chattr busybox; do command -v "$b"; done)

# Up to date when nothing that goes into it is newer (one image serves every
# boot of this kernel: the run and the selftests' boots).  Boots that run
# at once (make fstests-compare) build it once: the others wait.
img="$k/initramfs.cpio.gz"
need_cmd flock
exec 9> "$k/.image.lock"
flock 9
# shellcheck disable=SC2086
if [ -f "$img" ] && [ -z "$(find "$VX_ROOT/images" "$VX_ROOT/workloads" "$0" \
	"$k/modules" $bins -newer "$img" 2>/dev/null | head -n 1)" ]; then
	echo "$img"
	exit 0
fi

r="$k/initramfs.d"
rm -rf "$r"
mkdir -p "$r/bin" "$r/sbin" "$r/usr/bin" "$r/usr/sbin" "$r/lib/modules" \
	"$r/proc" "$r/sys" "$r/dev" "$r/mnt" "$r/tmp" "$r/workloads" "$r/steps" "$r/usr/lib"

cp "$(command -v busybox)" "$r/bin/busybox"
# One link per applet; never a link named busybox (it would point at itself).
for a in $(busybox --list); do
	[ "$a" = busybox ] || [ -e "$r/bin/$a" ] || ln -s busybox "$r/bin/$a"
done

# copy_bin FILE: the binary and every library it loads, at the same paths.
copy_bin() {
	mkdir -p "$r$(dirname "$1")"
	cp -L "$1" "$r$1"
	ldd "$1" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
		mkdir -p "$r$(dirname "$lib")"
		cp -L "$lib" "$r$lib"
	done
}
for b in $bins; do
	[ "${b##*/}" = busybox ] || copy_bin "$b"
done

gcc -O2 -Wall -static -pthread -o "$r/usr/bin/dircreate" "$VX_ROOT/workloads/dircreate/dircreate.c"
gcc -O2 -Wall -static -o "$r/usr/bin/finsmod" "$VX_ROOT/images/finsmod.c"
gcc -O2 -Wall -static -o "$r/usr/bin/nsnow" "$VX_ROOT/images/nsnow.c"
cp "$k"/modules/*.ko "$r/lib/modules/"
cp -r "$VX_ROOT"/workloads/*.wl "$VX_ROOT/workloads/fio" "$r/workloads/"
cp "$VX_ROOT/images/fio_terse" "$VX_ROOT/images/fsmark_parse" "$r/usr/bin/"
cp "$VX_ROOT/images/init" "$r/init"
cp "$VX_ROOT"/images/steps/*.sh "$r/steps/"
cp "$VX_ROOT/images/lib.sh" "$r/usr/lib/vx.sh"
chmod +x "$r/init" "$r/usr/bin/fio_terse" "$r/usr/bin/fsmark_parse" "$r"/steps/*.sh

(cd "$r" && find . | cpio -o -H newc --quiet | gzip -1) > "$img.tmp"
mv "$img.tmp" "$img"
rm -rf "$r"
echo "$img"
