#!/usr/bin/env bash
# ClusterFuzzLite runs $SRC/build.sh; this one is the OSS-Fuzz build script.
exec "$(dirname "$0")/../fuzz/oss-fuzz/build.sh" "$@"
