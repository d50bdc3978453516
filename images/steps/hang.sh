#!/bin/sh
# step hang: never ends; the host's selftest checks that a hung guest is
# killed at its timeout.
# usage: hang
# reports: nothing
while :; do sleep 60; done
