#!/bin/sh
# step shell: an interactive shell on the console (make boot).
# usage: shell
# reports: nothing
setsid cttyhack sh
