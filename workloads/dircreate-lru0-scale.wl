# dircreate-lru0-ram cut for a scaling series (make compare CPUS="1 2 4
# 8"): 2000 files in 8 directories, whatever the vCPU count.  dircreate
# gives file i to thread i % threads and directory i % dirs, so with 8
# directories and 1, 2, 4 or 8 threads no two threads share a directory:
# a thread's lookups release the directory buffer they read, and with
# buf_lru_ref=1 that frees and unmaps it.  (Threads sharing a directory
# keep its buffer held for each other: with one directory and 2 threads,
# stock 6.1 mapped no buffer in 2000 cold lookups.)  One boot per kernel
# and vCPU count takes about 35 s under TCG.  Same 64k blocks, buf_lru_ref=1
# and RAM disk; needs VARIANT=xfsdebug kernels.
. /workloads/dircreate-lru0-ram.wl
WL_CMD='dircreate -t $CPUS -d 8 -n 2000 -r 1 -M 1 -p /mnt'
