# dircreate-lru0-ram cut to one directory of 2000 files (the size of each
# of dircreate-lru0-ram's 4 directories, so a lookup reads the same kind
# of directory blocks), for a scaling series (make compare CPUS="1 2 4
# 8"): one boot per kernel and vCPU count stays near two minutes under
# TCG.  Same 64k blocks, buf_lru_ref=1 and RAM disk; needs VARIANT=xfsdebug
# kernels.
. /workloads/dircreate-lru0-ram.wl
WL_CMD='dircreate -t $CPUS -d 1 -n 2000 -r 1 -M 1 -p /mnt'
