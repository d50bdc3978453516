# (a') dircreate with 8k directory blocks: two pages per directory buffer,
# still mapped through vm_map_ram, but many more blocks per directory.
. /workloads/dircreate.wl
WL_MKFS="-n size=8k"
