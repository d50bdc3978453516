# Compressed-read workloads (the cread guest step): the file sets and the
# erofs images they are read from, built on the host once and cached
# (sourced by boot.sh and selftest.sh; needs common.sh).
# shellcheck shell=sh
#
# A cread workload is workloads/NAME.wl with CR_FS (erofs or f2fs),
# CR_SET (small or full) and CR_CLUSTER (4k or 64k: erofs' largest
# physical cluster; for f2fs, the image its files are copied from).
# A file set is fixed per kernel source package and host binaries:
#   small  fs/xfs and mm of the 6.1 source tree, and busybox
#          (about 11 MB in 412 files)
#   full   Documentation, fs and include of the 6.1 source tree, and
#          qemu-system-x86_64, cc1, fio, xfs_repair and busybox
#          (about 180 MB in 16864 files: text, source and larger binaries)
# Each image holds the set and, at its root, .vx-md5 (md5sum's format)
# and .vx-bytes (the set's size): the guest verifies what it read.

VX_CREAD_SRC=linux-source-6.1

# cread_wl NAME: CR_FS, CR_SET, CR_CLUSTER of workloads/NAME.wl.
cread_wl() {
	CR_FS="" CR_SET="" CR_CLUSTER=""
	# shellcheck disable=SC1090
	. "$VX_ROOT/workloads/$1.wl"
	case $CR_FS:$CR_SET:$CR_CLUSTER in
	erofs:small:4k|erofs:small:64k|erofs:full:4k|erofs:full:64k|f2fs:small:*k|f2fs:full:*k) ;;
	*) die "workloads/$1.wl: CR_FS=erofs|f2fs, CR_SET=small|full, CR_CLUSTER=4k|64k (have '$CR_FS' '$CR_SET' '$CR_CLUSTER')" ;;
	esac
}

# cread_files SET DIR: the file set SET, built in DIR.
cread_files() {
	# (the compressed-read workloads need it whatever KSRC is)
	dpkg-query -W -f='${Status}' "$VX_CREAD_SRC" 2>/dev/null | grep -q 'ok installed' ||
		die "the cread file sets come from $VX_CREAD_SRC: run 'make deps KSRC=$VX_CREAD_SRC'"
	_tb=$(KSRC=$VX_CREAD_SRC ksrc_tarball)
	_top=$(tar -tf "$_tb" | head -n 1 | cut -d/ -f1)
	case $1 in
	small) _dirs="fs/xfs mm" _bins="busybox" ;;
	full) _dirs="Documentation fs include" _bins="qemu-system-x86_64 fio xfs_repair busybox" ;;
	esac
	mkdir -p "$2/src" "$2/bin"
	# shellcheck disable=SC2046
	tar -xf "$_tb" -C "$2/src" --strip-components=1 $(for _x in $_dirs; do echo "$_top/$_x"; done) ||
		die "cannot extract $_dirs from $_tb"
	for _b in $_bins; do cp "$(command -v "$_b")" "$2/bin/"; done
	[ "$1" != full ] || cp "$(gcc -print-prog-name=cc1)" "$2/bin/"
	(cd "$2" && find . -type f ! -name '.vx-*' | sort | xargs md5sum > .vx-md5 &&
		find . -type f ! -name '.vx-*' -printf '%s\n' | awk '{ s += $1 } END { print s }' > .vx-bytes)
}

# cread_image SET CLUSTER: the erofs image (lz4hc, physical clusters of at
# most CLUSTER) of SET; built once per set, cluster and source package.
cread_image() {
	need_cmd mkfs.erofs
	_d="$VX_CACHE/cread/$(KSRC=$VX_CREAD_SRC ksrc_version)-$1"
	_img="$_d-$2.erofs"
	mkdir -p "$VX_CACHE/cread"
	exec 7> "$_d.lock"
	flock 7
	if [ ! -f "$_d/.vx-bytes" ]; then
		progress "building the $1 file set in $_d"
		rm -rf "$_d"
		cread_files "$1" "$_d"
	fi
	if [ ! -f "$_img" ]; then
		progress "building $_img (mkfs.erofs -zlz4hc -C $2)"
		_c=$(( ${2%k} * 1024 ))
		run_logged "$_img.log" mkfs.erofs -zlz4hc -C"$_c" "$_img.tmp" "$_d"
		mv "$_img.tmp" "$_img"
	fi
	exec 7>&-
	echo "$_img"
}

# cread_disks PLAN: "NAME PATH" per image the cread steps of PLAN read, in
# the order boot.sh attaches them (vdb, vdc, ...): one per distinct image.
cread_disks() {
	_seen=""
	for _s in $(echo "$1" | tr ',' ' '); do
		case $_s in cread:*) ;; *) continue ;; esac
		cread_wl "${_s#cread:}"
		_n=erofs-$CR_SET-$CR_CLUSTER
		case " $_seen " in *" $_n "*) continue ;; esac
		_seen="$_seen $_n"
		_img=$(cread_image "$CR_SET" "$CR_CLUSTER")
		echo "$_n $_img"
	done
}
