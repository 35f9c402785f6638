#!/bin/sh
# spawn.sh: runs copy as a child process (not exec'd). gpuprof exec profiles that child only
# with --follow-children; the tests assert both. Passes the child's exit status on.
"$(dirname "$0")/copy" coalesced 2^20
status=$?
echo "spawn: child exited $status"
exit $status
