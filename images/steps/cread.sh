#!/bin/sh
# step cread: compressed cold reads through the filesystems that map each
# decompression with vm_map_ram(): erofs (the file set's image, attached
# read-only by the host) or f2fs (the file set copied from that image into
# a compressed directory on vda).  Per thread count (1, and 2 when there
# are 2 vCPUs): drop the caches, read every file (threads take every n-th
# file), and count the read's vm_map_ram()/vm_unmap_ram() calls (kprobes),
# IPIs and vmap/stats.  A read that maps nothing was served from a cache:
# it fails.  Then every file is checked against the host's md5 sums.
# usage: cread:NAME (workloads/NAME.wl: CR_FS, CR_SET, CR_CLUSTER)
# reports: TEST cread:NAME:mount, :cold-read-tN, :verify (f2fs also :mkfs,
#   :compressed, :umount, :fsck); RESULT NAME phase=read-tN bytes= usec=
#   mb_per_s= vc_vm_map_ram= vc_vm_unmap_ram= tlb_ipis= cal_ipis=
#   maps_per_mb= ipis_per_mb= vs_*
. /usr/lib/vx.sh
name=$1
CR_FS="" CR_SET="" CR_CLUSTER=""
. "/workloads/$name.wl"
t="cread:$name"
img=erofs-$CR_SET-$CR_CLUSTER
# The image's disk: vdb for the first of vx.crimgs=, vdc for the next...
dev=$(cmdarg vx.crimgs | tr ',' '\n' | awk -v i="$img" '$0 == i { printf "/dev/vd%c", 97 + NR; exit }')
mkdir -p /cr
if [ -z "$dev" ] || ! mount -t erofs -o ro "$dev" /cr; then
	fail "$t:mount erofs image $img (${dev:-not attached: vx.crimgs=$(cmdarg vx.crimgs)})"
	exit 0
fi
pass "$t:mount"
dir=/cr
if [ "$CR_FS" = f2fs ]; then
	dir=/mnt/d
	if ! mkfs.f2fs -f -q -O extra_attr,compression "$DISK" > /tmp/mkfs.log 2>&1 ||
		! mount -t f2fs -o compress_algorithm=lz4 "$DISK" /mnt; then
		cat /tmp/mkfs.log; fail "$t:mkfs"; umount /cr; exit 0
	fi
	pass "$t:mkfs"
	check "$t:copy" sh -c "mkdir $dir && chattr +c $dir && cp -a /cr/. $dir/ && sync"
	saved=$(cat /sys/fs/f2fs/"${DISK##*/}"/compr_saved_block 2>/dev/null)
	check "$t:compressed saved_blocks=${saved:-none}" test "${saved:-0}" -gt 0
	umount /cr
fi
bytes=$(cat "$dir/.vx-bytes")
vcalls_setup || fail "$t:kprobe-events"
for n in 1 2; do
	[ "$n" -le "$CPUS" ] || continue
	sync
	echo 3 > /proc/sys/vm/drop_caches
	vc0=$(vcalls) vs0=$(vstats) i0=$(ipis) t0=$(nsnow)
	i=0
	while [ "$i" -lt "$n" ]; do
		(cd "$dir" && awk -v n="$n" -v i="$i" 'NR % n == i { print $2 }' .vx-md5 | xargs cat > /dev/null) &
		i=$((i + 1))
	done
	wait
	t1=$(nsnow) i1=$(ipis) vs1=$(vstats) vc1=$(vcalls)
	all="$(ipi_diff "$i0" "$i1")$(vstats_diff "$vs0" "$vs1")$(kv_diff vc_ "$vc0" "$vc1")"
	say "RESULT $name phase=read-t$n bytes=$bytes usec=$(((t1 - t0) / 1000)) $all $(echo "$bytes $((t1 - t0)) $all" | awk '{
		for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		mb = $1 / 1048576; s = $2 / 1e9
		printf "mb_per_s=%.1f maps_per_mb=%.2f ipis_per_mb=%.2f", (s > 0 ? mb / s : 0),
			v["vc_vm_map_ram"] / mb, (v["tlb_ipis"] + v["cal_ipis"]) / mb }')"
	maps=$(echo "$all" | tr ' ' '\n' | sed -n 's/^vc_vm_map_ram=//p')
	check "$t:cold-read-t$n vm_map_ram=${maps:-uncounted}" test "${maps:-0}" -gt 0
done
# What was read is what the host put in the image.
(cd "$dir" && md5sum -c .vx-md5) > /tmp/cread.md5 2>&1
ok=$(grep -c ': OK$' /tmp/cread.md5) nfiles=$(wc -l < "$dir/.vx-md5")
check "$t:verify $ok of $nfiles files" test "$ok" -gt 0 -a "$ok" = "$nfiles"
if [ "$CR_FS" = f2fs ]; then
	check "$t:umount" umount /mnt
	check "$t:fsck" fsck.f2fs --dry-run "$DISK"
else
	umount /cr
fi
