# (a) Directory creation: threads creating, stat'ing and unlinking 20000
# empty files spread over 4 large directories, 64k directory blocks.
WL_MKFS="-n size=64k"
WL_CMD='dircreate -t $CPUS -d 4 -n 20000 -p /mnt'
