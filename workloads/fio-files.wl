# (b) The same shape with fio's filecreate, filestat and filedelete engines.
WL_MKFS="-n size=64k"
WL_SETUP='mkdir -p /mnt/d0 /mnt/d1 /mnt/d2 /mnt/d3'
WL_CMD='fio --output-format=terse --terse-version=3 --numjobs=$CPUS /workloads/fio/files.fio'
WL_PARSE=fio_terse
