# fsmark with directory buffers that live as briefly as in 2.6.27
# (buf_lru_ref=1: the last release of a directory buffer frees, and
# unmaps, it; VARIANT=xfsdebug kernels) on a RAM disk, so that reading a
# directory block again costs a memory copy, as the re-read of a
# page-cache-backed buffer did in 2.6.27, not a virtio request (README).
# Sized for make compare's rounds: 2 loops of 2000 files per thread.
. /workloads/fsmark.wl
WL_CMD='phase_run create $((CPUS * 4000)) fs_mark -k -S0 -s 0 -D 4 -n 2000 -L 2 -t $CPUS -d /mnt/fsm &&
	sync && echo 3 > /proc/sys/vm/drop_caches &&
	phase_run coldls $((CPUS * 4000)) sh -c "ls -lR /mnt/fsm > /dev/null"'
WL_ERRORTAG=buf_lru_ref=1
WL_RAMDISK=512
