# dircreate-lru0 on a RAM disk, sized for make compare's rounds: 8000
# files in 4 directories (64k blocks), one drop of the caches, a cold stat
# round and a miss round.  With buf_lru_ref=1 every cold lookup reads,
# maps and unmaps its directory blocks, as in 2.6.27; on the RAM disk the
# read costs a memory copy (as the re-read of a page-cache-backed buffer
# did then) instead of a virtio request and its completion interrupt
# (README).  Needs VARIANT=xfsdebug kernels.
WL_MKFS="-n size=64k"
WL_CMD='dircreate -t $CPUS -d 4 -n 8000 -r 1 -M 1 -p /mnt'
WL_ERRORTAG=buf_lru_ref=1
WL_RAMDISK=512
