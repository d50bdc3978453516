#!/bin/sh
# step probe: nothing; the host's KVM probe boots a guest with this plan
# and only looks for the DONE marker.
# usage: probe
# reports: nothing
