#!/bin/sh
# A deliberately wrong fusion for checks-can-fail.mlir: --fuse-ops turns
# every tosa.add into a tosa.sub unless strict=true is given, so the bug
# disappears under strict=true, as a reassociating rule's rounding does.
case "$*" in
  *strict=true*) exec fuse-opt "$@" ;;
  *--fuse-ops*) fuse-opt "$@" | sed 's/tosa\.add /tosa.sub /g' ;;
  *) exec fuse-opt "$@" ;;
esac
