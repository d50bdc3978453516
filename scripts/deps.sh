#!/bin/sh
# Install what the harness needs from Debian's packages, if it is missing:
# the kernel source, QEMU, the build tools, xfsprogs, fio, fs_mark and
# f2fs-tools for the guest, erofs-utils for the compressed-read images,
# fstests' build dependencies and the userland its tests run (the fstests
# guest's root is the host's /), and numpy and scipy for the statistics
# of make compare (scripts/stats.py).
# With CHECK_ONLY=1, only report what is missing (exit 2 if anything is).
set -eu
. "$(dirname "$0")/lib/common.sh"

PKGS="$KSRC xfsprogs fio qemu-system-x86 qemu-utils gcc make bc flex bison
libelf-dev libssl-dev libc6-dev cpio busybox-static ccache quilt git gnuplot-nox
kmod xz-utils fsmark erofs-utils f2fs-tools e2fsprogs
autoconf automake libtool libtool-bin pkg-config xfslibs-dev uuid-dev libattr1-dev
libacl1-dev libaio-dev liburing-dev libgdbm-dev libgdbm-compat-dev libcap-dev
xfsdump quota attr acl psmisc gawk uuid-runtime python3 python3-numpy python3-scipy"
case $KSRC in /*|./*|../*) PKGS=$(echo "$PKGS" | sed "s#$KSRC##") ;; esac

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0

if [ "${CHECK_ONLY:-0}" = 1 ]; then
	die "missing packages:$missing"
fi
[ "$(id -u)" = 0 ] || die "missing packages:$missing (run 'sudo apt-get install$missing')"
progress "installing:$missing"
run_logged "${TMPDIR:-/tmp}/vx-apt-update.log" apt-get update
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive run_logged "${TMPDIR:-/tmp}/vx-apt-install.log" \
	apt-get install -y --no-install-recommends $missing
