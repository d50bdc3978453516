# dircreate with directory buffers that live as briefly as in 2.6.27:
# buf_lru_ref=1 (XFS error injection, VARIANT=xfsdebug kernels) makes the
# last release of a directory buffer free it, and unmap it, instead of
# keeping it on 6.1's buffer LRU.  Blocks that create and unlink modify
# stay referenced by the log until written back, so this alone maps
# little more than dircreate does (README).
. /workloads/dircreate.wl
WL_ERRORTAG=buf_lru_ref=1
