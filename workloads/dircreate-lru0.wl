# dircreate-miss with directory buffers that live as briefly as in 2.6.27:
# buf_lru_ref=1 (XFS error injection, VARIANT=xfsdebug kernels) makes the
# last release of a directory buffer free it, and unmap it, instead of
# keeping it on 6.1's buffer LRU.  Buffers already on the LRU stay there;
# after dircreate-miss's drop of the caches every lookup reads, maps and
# unmaps its hash blocks again (README).
. /workloads/dircreate-miss.wl
WL_ERRORTAG=buf_lru_ref=1
