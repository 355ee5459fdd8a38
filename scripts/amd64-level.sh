#!/bin/sh
# Prints the GOAMD64 level of this machine's CPU, v3, v2 or v1, from the
# flags in /proc/cpuinfo (Go's requirements for each level); v1 where they
# cannot be read (another system or architecture). The Makefile builds the
# engine for the machine that runs make with it (see GOAMD64 there).
flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
has() {
	for f in "$@"; do
		case "$flags" in
		*" $f "*) ;;
		*) return 1 ;;
		esac
	done
}
if has avx avx2 bmi1 bmi2 f16c fma abm movbe xsave pni ssse3 sse4_1 sse4_2 popcnt cx16 lahf_lm; then
	echo v3
elif has pni ssse3 sse4_1 sse4_2 popcnt cx16 lahf_lm; then
	echo v2
else
	echo v1
fi
